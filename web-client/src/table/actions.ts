// The table's actions: what the buttons, the melds, the trainer and the keys do, built from the seat's
// offers (table/offers.ts) and played as the offered steps, one step per state; a move no offered step
// plays is sent whole for the server to judge. They read and change the table's one store (table/state.ts).
import { useEffect, useRef } from "preact/hooks";
import { api } from "../api";
import type { HostAction as HostMessage } from "../generated/client";
import { remember } from "../store";
import { meldMove } from "./moves";
import { canAddTo, goWithPile, openingWords, pickupFor, sameCards, stepsFor, stepTo, without, type Offers } from "./offers";
import { capital } from "./names";
import type { Plan, TableState } from "./state";
import { cardsWords } from "./words";

/** The table's actions on the store ``s`` (made anew at each render, so they read its latest state). */
export function tableActions(s: TableState) {
  const { tableId, token, table, welcome, state, stateRef, myTurn, plans, offers, hand, selected, selectedCards, staged, view, pileCards, hintPlan, endShown } = s;
  const { setRefused, setWhy, setFresh, freshRef, showNotice, sendMessage, setDrawer, setHint, setEndShown, setHostProblem, setJoinProblem, setTable } = s;
  const { setSelected, setPileCards, setHintPlan, setPlanCount } = s;

  /** Send ``move`` (nothing for null) for the state shown now. */
  function send(move: string | null) {
    const state = stateRef.current;
    if (!state || !move) return;
    setRefused(null);
    setWhy(null);
    freshRef.current = [];
    setFresh([]);
    if (!sendMessage({ type: "move", version: state.version, move })) {
      showNotice("Not connected to the table right now (reconnecting…): that move was not sent. Nothing changed; try again once it says connected.");
    }
  }

  /** Ask the server's trainer for a hint for the state shown now (the trainer panel opens). */
  function askHint() {
    if (!state) return;
    setDrawer((d) => d ?? "trainer");
    setHint({ kind: "asking", version: state.version });
    sendMessage({ type: "hint", version: state.version });
  }

  /** Close the score dialog of a finished hand and tell the server this person is ready to go on. */
  function closeEnd() {
    if (endShown !== null) sendMessage({ type: "ready", hand: endShown });
    setEndShown(null);
  }

  /** Send the host's ``action`` (with its ``extra`` fields); the panel's last problem is cleared. */
  function hostAction(action: HostMessage["action"], extra: Omit<HostMessage, "type" | "action"> = {}) {
    setHostProblem(null);
    sendMessage({ type: "host", action, ...extra });
  }

  /** Take the seat under ``name`` (the join form); a problem is shown in the form. */
  async function join(name: string) {
    if (!token) return;
    try {
      const joined = await api.join(tableId, token, name);
      setJoinProblem(null);
      setTable(joined.table); // the dialog closes now, not when the server's next table notice comes
      remember({ id: tableId, rules: table?.rules ?? "", when: "", seat: welcome?.seat ?? 0, token, name });
    } catch (e) {
      setJoinProblem(e instanceof Error ? e.message : String(e));
    }
  }

  /** Select the hand's card at ``index``, or put it back. */
  function toggle(index: number) {
    setSelected((old) => (old.includes(index) ? old.filter((i) => i !== index) : [...old, index]));
  }

  /** Play the next step of the first plan from the offers now, or what follows it; false when no plan is
   * under way. A plan whose cards no offered step plays sends them as one move for the server to judge
   * (and refuse in its own words), or says why. */
  function runPlans(): boolean {
    const now = stateRef.current;
    const plan = plans.current[0];
    if (!plan || !now?.offers) return false;
    const next = () => {
      plans.current = plans.current.slice(1);
      setPlanCount(plans.current.length);
    };
    if (plan.codes.length) {
      const step = stepsFor(now.offers, plan.codes, plan.verb, plan.to, plan.rank)[0];
      if (!step) {
        next();
        plans.current = [];
        setPlanCount(0);
        if (plan.started) setWhy(`${capital(cardsWords(plan.codes))}: the table offers no place for ${plan.codes.length > 1 ? "these cards" : "this card"} now.`);
        else send(plan.rank ? `meld ${plan.rank}: ${plan.codes.join(" ")}` : `${plan.verb} ${plan.codes.join(" ")}`);
        return true;
      }
      plan.codes = without(plan.codes, step.cards);
      plan.started = true;
      setPlanCount(plans.current.length);
      send(step.move);
      return true;
    }
    next();
    const then = plan.then;
    if (then && "commit" in then) {
      if (now.offers.commit) send(now.offers.commit.move);
      else setWhy(openingWhy(now.offers));
      return true;
    }
    if (then && "pickup" in then) {
      const step = pickupFor(now.offers, then.pickup);
      send(step ? step.move : `pickup ${then.pickup.join(" ")}`);
      return true;
    }
    return runPlans();
  }

  /** Queue a plan (cards to play as offered steps) and start it unless one is under way. A card the
   * offers have no such place for, or a selection no offered step begins with, sends the whole selection
   * as one move, for the server to judge whole and refuse in its own words (nothing is played in part,
   * and the selection stays). */
  function play(plan: Omit<Plan, "started">) {
    const running = plans.current.length > 0;
    const placed = (code: string) => (offers?.cards.find((c) => c.card === code)?.places ?? []).some((p) => plan.to.includes(p.to) && (plan.rank === undefined || p.rank === plan.rank));
    const startable = running || stepsFor(offers, plan.codes, plan.verb, plan.to, plan.rank).length > 0 || !plan.codes.length;
    if (!running && (!startable || plan.codes.some((code) => !placed(code)))) {
      return send(plan.verb === "meld" && !plan.rank ? meldMove(hand, selected) : `${plan.verb} ${plan.rank ? `${plan.rank}: ` : ""}${plan.codes.join(" ")}`);
    }
    plans.current = [...plans.current, { ...plan, started: false }];
    setPlanCount(plans.current.length);
    setSelected([]);
    setHintPlan(null);
    if (!running) runPlans();
  }

  /** Why the staged groups cannot be laid yet, from the engine's opening count or its sentence. */
  function openingWhy(o: Offers): string {
    if (o.opening) {
      const words = openingWords(o.opening);
      return `The staged groups count ${words.points}; ${words.need}.`;
    }
    return o.why_not.meld ?? "The staged groups cannot be laid now.";
  }

  /** Draw from the stock, or say why not (the engine's sentence). */
  function draw() {
    if (offers?.why_not.draw) return setWhy(offers.why_not.draw);
    send("draw");
  }

  /** Stage the selection toward an opening, or set aside the naturals that go with the pile's top card. */
  function stageGroup() {
    if (!selected.length || !offers) return;
    if (view?.phase === "draw" && !pileCards.length && goWithPile(offers, selectedCards) && !stepsFor(offers, selectedCards, "stage", ["new", "staged", "pile"]).length) {
      // naturals for the top card that no step stages: the pickup takes them with the pile
      setPileCards(selectedCards);
      setSelected([]);
      return;
    }
    play({ verb: "stage", codes: selectedCards, to: ["new", "staged", "pile"] });
  }

  /** Clear the selection and the plans, and take the staged groups back (the offered cancel). */
  function clear() {
    setSelected([]);
    setPileCards([]);
    setHintPlan(null);
    setWhy(null);
    plans.current = [];
    setPlanCount(0);
    if (offers?.cancel) send(offers.cancel.move);
  }

  // The hint's move, while its cards are the ones selected.
  const hinted = (cards: readonly string[]) => (hintPlan && sameCards(cards, hintPlan.cards) ? hintPlan.move : null);
  /** Meld the selection (alone, onto the table, or with the staged groups to open), or say why not. */
  function meld() {
    if (!offers) return;
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("meld")) return send(hintMove);
    if (offers.why_not.meld !== null && !staged.length && !plans.current.length) {
      if (selectedCards.length && view?.phase === "play") return send(meldMove(hand, selected));
      return setWhy(offers.why_not.meld);
    }
    if (offers.opening) {
      if (selectedCards.length) {
        const alone = stepsFor(offers, selectedCards, "meld", ["new"]).find((s) => sameCards(s.cards, selectedCards));
        if (alone && !staged.length && !plans.current.length) return send(alone.move);
        return play({ verb: "stage", codes: selectedCards, to: ["new", "staged"], then: { commit: true } });
      }
      if (plans.current.length) return play({ verb: "stage", codes: [], to: [], then: { commit: true } });
      if (offers.commit) return send(offers.commit.move);
      return setWhy(staged.length ? openingWhy(offers) : "Select the cards of a group first, then Meld.");
    }
    if (selectedCards.length) play({ verb: "meld", codes: selectedCards, to: ["new", "meld"] });
  }
  /** Take the pile with the cards set aside or selected (staging the others first), or say why not. */
  function pickup() {
    if (!offers) return;
    if (!offers.pile.may) return setWhy(offers.pile.refusal ?? "The pile cannot be taken now.");
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("pickup")) return send(hintMove);
    const withPile = goWithPile(offers, selectedCards) ? selectedCards : [];
    const others = withPile.length ? [] : selectedCards;
    const cards = [...pileCards, ...withPile];
    if (others.length) return play({ verb: "stage", codes: others, to: ["new", "staged"], then: { pickup: cards } });
    if (plans.current.length) return play({ verb: "stage", codes: [], to: [], then: { pickup: cards } });
    const step = pickupFor(offers, cards);
    if (step) return send(step.move);
    if (cards.length) return send(`pickup ${cards.join(" ")}`);
    setWhy("Select the naturals that go with the top card, then Take the pile.");
  }
  /** Discard the one selected card, or say why not. */
  function discard() {
    const code = selectedCards[0];
    if (!offers || selectedCards.length !== 1 || !code) return;
    const hintMove = hinted(selectedCards);
    if (hintMove && hintMove.startsWith("discard")) return send(hintMove);
    if (offers.why_not.discard !== null) return setWhy(offers.why_not.discard);
    send(stepTo(offers, code, "discard")?.move ?? `discard ${code}`);
  }
  // Onto your meld of ``rank``, and whether the selection may go there.
  const addTo = (rank: string) => play({ verb: "meld", codes: selectedCards, to: ["meld"], rank });
  const canAdd = (rank: string) => myTurn && canAddTo(offers, selectedCards, rank);


  return { send, askHint, closeEnd, hostAction, join, toggle, runPlans, play, draw, stageGroup, clear, meld, pickup, discard, addTo, canAdd };
}

/** The table's actions, as `tableActions` makes them. */
export type TableActions = ReturnType<typeof tableActions>;

/** The keyboard: D draw, P take the pile, G add a group, M meld, X discard, H hint, Esc clear. */
export function useKeys(s: TableState, a: TableActions): void {
  // Keys are read from a ref, so a burst of keys between renders acts on the latest state (none dropped).
  const keys = useRef<(ev: KeyboardEvent) => void>(() => undefined);
  keys.current = (ev: KeyboardEvent) => {
    const target = ev.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const key = ev.key.toLowerCase();
    if (key === "escape") {
      a.clear();
      a.closeEnd();
      s.setDrawer(null);
    } else if (!s.myTurn) return;
    else if (key === "d") a.draw();
    else if (key === "m") a.meld();
    else if (key === "g") a.stageGroup();
    else if (key === "x") a.discard();
    else if (key === "p") a.pickup();
    else if (key === "h") a.askHint();
    else return;
    ev.preventDefault();
  };
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => keys.current(ev);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

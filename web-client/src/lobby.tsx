// The lobby: create a table (a preset, any option changed, the player count, each seat an invitation
// or a bot, private or listed), join by link, this browser's own tables, and the tables listed publicly.
import { useEffect, useState } from "preact/hooks";
import { api, type Created, type PresetSummary } from "./api";
import { Header } from "./components";
import { CreateForm } from "./lobby/create";
import { CreatedPanel, JoinPanel, RecentPanel, WatchPanel } from "./lobby/panels";

/** The lobby page: the form or the table just created, and the panels beside it. */
export function Lobby() {
  const [presets, setPresets] = useState<PresetSummary[]>([]);
  const [bots, setBots] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [version, setVersion] = useState<string | null>(null);

  useEffect(() => {
    // The version is the server's (its package metadata): the client has none of its own.
    api.health().then(
      (h) => setVersion(h.version),
      () => setVersion(null),
    );
    Promise.all([api.presets(), api.bots()]).then(
      ([p, b]) => {
        setPresets(p);
        setBots(b.bots);
      },
      (e: Error) => setError(e.message),
    );
  }, []);

  return (
    <div class="page lobby">
      <Header />
      <main>
        <h1 class="sr-only">Lobby</h1>
        {error ? (
          <p class="refusal" role="alert">
            {error}
          </p>
        ) : null}
        <div class="lobby-grid">
          {created ? <CreatedPanel created={created} onAnother={() => setCreated(null)} /> : presets.length ? <CreateForm presets={presets} bots={bots} onCreated={setCreated} /> : <p role="status">Loading the rules…</p>}
          <div class="lobby-side">
            <JoinPanel />
            <RecentPanel />
            <WatchPanel />
          </div>
        </div>
      </main>
      {version ? <footer class="version muted">handfoot {version}</footer> : null}
    </div>
  );
}

export { printHref } from "./lobby/create";

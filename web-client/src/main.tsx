// The single page: routes by its own address (/, /play/{id}#seat=TOKEN, /watch/{id}, /replay/{id}, /scorepad).
import { render } from "preact";
import { Lobby } from "./lobby";
import { TablePage } from "./table";
import { ReplayPage } from "./replay";
import { ScorePad } from "./scorepad";
import "./style.css";

function tokenFromHash(): string | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return params.get("seat");
}

function App() {
  const path = location.pathname;
  const play = /^\/play\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  const watch = /^\/watch\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  const replay = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (play?.[1]) return <TablePage tableId={play[1]} token={tokenFromHash()} />;
  if (watch?.[1]) return <TablePage tableId={watch[1]} token={null} />;
  if (replay?.[1]) return <ReplayPage tableId={replay[1]} />;
  if (path === "/scorepad") return <ScorePad />;
  return <Lobby />;
}

window.addEventListener("hashchange", () => location.reload());
const root = document.getElementById("app");
if (root) render(<App />, root);

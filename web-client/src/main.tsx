// The single page: routes by its own address (/, /play/{id}#seat=TOKEN, /watch/{id}#key=KEY,
// /watch/{id}#host=KEY, /replay/{id}, /scorepad). A table's secrets are after "#": they never reach a server log.
import { render } from "preact";
import { Lobby } from "./lobby";
import { TablePage, type LinkSecrets } from "./table";
import { ReplayPage } from "./replay";
import { ReviewPage } from "./review";
import { ScorePad } from "./scorepad";
import { Header } from "./components";
import "./style.css";

function secretsFromHash(): LinkSecrets {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  return { token: params.get("seat"), key: params.get("key"), host: params.get("host") };
}

function NotFound() {
  return (
    <div class="page">
      <Header />
      <main class="panel">
        <h1>There is no such page</h1>
        <p role="alert">
          The address <code>{location.pathname}</code> is not a page of this game: the link may be mistyped or cut short.
        </p>
        <p>
          <a href="/">Go to the lobby</a>
        </p>
      </main>
    </div>
  );
}

function App() {
  const path = location.pathname;
  const play = /^\/play\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  const watch = /^\/watch\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  const replay = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  const review = /^\/review\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (play?.[1]) return <TablePage tableId={play[1]} link={secretsFromHash()} play />;
  if (watch?.[1]) return <TablePage tableId={watch[1]} link={secretsFromHash()} play={false} />;
  if (replay?.[1]) return <ReplayPage tableId={replay[1]} />;
  if (review?.[1]) return <ReviewPage tableId={review[1]} />;
  if (path === "/scorepad") return <ScorePad />;
  if (path === "/" || path === "/index.html") return <Lobby />;
  return <NotFound />;
}

window.addEventListener("hashchange", () => location.reload());
const root = document.getElementById("app");
if (root) render(<App />, root);

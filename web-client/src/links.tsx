// A link to hand to someone at the table: the link in a field, Copy, and a QR code a phone can scan.
// Where the browser has no clipboard (a page opened over plain HTTP on a home-network address is not a
// secure context, so navigator.clipboard is missing), Copy selects the link and says how to copy it.
import qrcode from "qrcode-generator";
import { useMemo, useRef, useState } from "preact/hooks";

/** A QR code of ``text`` drawn as SVG (no image is loaded from anywhere). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const path = useMemo(() => {
    const qr = qrcode(0, "M");
    qr.addData(text);
    qr.make();
    const n = qr.getModuleCount();
    let d = "";
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (qr.isDark(y, x)) d += `M${x} ${y}h1v1h-1z`;
    return { d, n };
  }, [text]);
  const side = path.n + 8;
  return (
    <svg class="qr" viewBox={`-4 -4 ${side} ${side}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect x={-4} y={-4} width={side} height={side} fill="#fff" />
      <path d={path.d} fill="#000" />
    </svg>
  );
}

/** Copy ``text`` to the clipboard; false when there is none here (or it refused). */
export async function copyToClipboard(text: string): Promise<boolean> {
  if (!window.isSecureContext || !navigator.clipboard) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The link in a read-only field with Copy and a QR code; the manual-copy line where Copy cannot copy. */
export function LinkField({ link, label, testId }: { link: string; label: string; testId?: string }) {
  const field = useRef<HTMLInputElement | null>(null);
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const [qrOpen, setQrOpen] = useState(false);
  return (
    <span class="link-field" data-testid={testId}>
      <input ref={field} readOnly value={link} aria-label={label} onFocus={(e) => (e.target as HTMLInputElement).select()} />
      <button
        type="button"
        onClick={async () => {
          if (await copyToClipboard(link)) {
            setState("copied");
            return;
          }
          field.current?.focus();
          field.current?.select();
          setState("manual");
          setQrOpen(true);
        }}
      >
        {state === "copied" ? "Copied" : "Copy"}
      </button>
      <button type="button" class="link" aria-expanded={qrOpen} onClick={() => setQrOpen(!qrOpen)}>
        {qrOpen ? "Hide QR code" : "QR code"}
      </button>
      {state === "manual" ? (
        <span class="manual-copy" role="status" data-testid="manual-copy">
          The link is selected: press Ctrl+C (or ⌘C; on a phone, long-press it) to copy.
        </span>
      ) : null}
      {qrOpen ? <QrCode text={link} label={`QR code of the ${label.toLowerCase()}`} /> : null}
    </span>
  );
}

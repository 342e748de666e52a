// Copying a link or snippet to the clipboard, with words for what happened:
// the page says "copied" (or where to copy it from) instead of leaving the
// person to wonder whether the click did anything.

/** Copies `text`; true when the clipboard took it (false: no clipboard API, or the browser refused). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** What to tell the person after copying a `what` ("link"): copied, or where to copy it by hand. */
export function copiedNote(ok: boolean, what: string, fallback: string): string {
  return ok ? `${what[0].toUpperCase()}${what.slice(1)} copied to the clipboard` : `Could not copy the ${what}: ${fallback}`;
}

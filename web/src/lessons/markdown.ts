// The Markdown subset of lesson narrations: paragraphs (blank lines apart),
// lists (lines starting "- ", "* " or "1. "), **bold**, *italic*, `code`
// and [links](https://...) to http(s) addresses only. It parses to a small
// tree of plain data that Markdown.tsx turns into React elements, so no
// narration ever reaches the page as HTML: angle brackets, entities and
// attributes stay text, and a link to anything but http(s) stays its own
// source text. Anything else Markdown has is text here.

/** A run of text inside a paragraph or a list item. */
export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong'; c: Inline[] }
  | { t: 'em'; c: Inline[] }
  /** `href` is an absolute http: or https: address (checked by `safeHref`). */
  | { t: 'link'; href: string; c: Inline[] };

/** A paragraph or a list. */
export type Block = { t: 'p'; c: Inline[] } | { t: 'ul' | 'ol'; items: Inline[][] };

/** The address itself when it is an absolute http(s) URL with nothing odd in it; otherwise null. */
export function safeHref(url: string): string | null {
  if (!/^https?:\/\/[^\s<>"'`\\]+$/i.test(url)) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const ITEM = /^\s*([-*+]|\d{1,9}[.)])\s+(.*)$/;

/** Parses a narration into blocks. */
export function parseMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (para.length) blocks.push({ t: 'p', c: parseInline(para.join(' ')) });
    if (list) blocks.push({ t: list.ordered ? 'ol' : 'ul', items: list.items.map(parseInline) });
    para = [];
    list = null;
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const m = ITEM.exec(raw);
    if (!line) flush();
    else if (m) {
      const ordered = /\d/.test(m[1]);
      if (para.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(m[2].trim());
    } else if (list && /^\s/.test(raw)) list.items[list.items.length - 1] += ' ' + line; // an item's indented continuation
    else {
      if (list) flush();
      para.push(line);
    }
  }
  flush();
  return blocks;
}

/** Index of the closing `mark` for an opening one ending at `from` (not preceded by a space), or -1. */
function closing(s: string, mark: string, from: number): number {
  for (let j = s.indexOf(mark, from); j >= 0; j = s.indexOf(mark, j + 1)) {
    if (j > from && !/\s/.test(s[j - 1]) && !(mark === '*' && s[j + 1] === '*')) return j;
  }
  return -1;
}

/** Parses the inline marks of one paragraph or list item. */
export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const push = (n: Inline) => {
    if (text) out.push({ t: 'text', v: text });
    text = '';
    out.push(n);
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length && '\\`*_[]()'.includes(s[i + 1])) {
      text += s[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const j = s.indexOf('`', i + 1);
      if (j > i + 1) {
        push({ t: 'code', v: s.slice(i + 1, j) });
        i = j + 1;
        continue;
      }
    }
    if (c === '*' && s[i + 1] === '*' && s[i + 2] && !/\s/.test(s[i + 2])) {
      const j = closing(s, '**', i + 2);
      if (j > 0) {
        push({ t: 'strong', c: parseInline(s.slice(i + 2, j)) });
        i = j + 2;
        continue;
      }
    }
    if (c === '*' && s[i + 1] !== '*' && s[i + 1] && !/\s/.test(s[i + 1])) {
      const j = closing(s, '*', i + 1);
      if (j > 0) {
        push({ t: 'em', c: parseInline(s.slice(i + 1, j)) });
        i = j + 1;
        continue;
      }
    }
    if (c === '[') {
      const m = /^\[([^\]]+)\]\(([^()\s]*)\)/.exec(s.slice(i));
      const href = m && safeHref(m[2]);
      if (m && href) {
        push({ t: 'link', href, c: parseInline(m[1]) });
        i += m[0].length;
        continue;
      }
      if (m) {
        // A link to anything but http(s): its source, as text.
        text += m[0];
        i += m[0].length;
        continue;
      }
    }
    text += c;
    i++;
  }
  if (text) out.push({ t: 'text', v: text });
  return out;
}

/** The text a reader sees, without marks (for tests and plain-text exports). */
export function plainText(blocks: Block[]): string {
  const inl = (xs: Inline[]): string => xs.map((x) => (x.t === 'text' || x.t === 'code' ? x.v : inl(x.c))).join('');
  return blocks.map((b) => (b.t === 'p' ? inl(b.c) : b.items.map(inl).join('\n'))).join('\n\n');
}

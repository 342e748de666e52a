// The summary's "unstable" flag explained: which runs, and which kind.

import { describe, expect, it } from 'vitest';
import type { Summary } from '../engine/api';
import { stabilityNotes } from './stability';

const sum = (stable: boolean, stop: Summary['stop'] = 'all_flows_done', flows = 100) => ({ stable, stop, flows }) as Summary;

describe('stability notes', () => {
  it('explain a growing backlog and a run cut short, each naming its runs; nothing for stable or unfinished runs', () => {
    const notes = stabilityNotes([
      { label: 'pfabric', summary: sum(false) },
      { label: 'ideal', summary: sum(true) },
      { label: 'dctcp', summary: sum(false) },
      { label: 'tcp', summary: sum(false, 'time_limit') },
      { label: 'pdq', summary: null },
      { label: 'empty', summary: sum(false, 'time_limit', 0) },
    ]);
    expect(notes.map((n) => [n.kind, n.runs])).toEqual([
      ['backlog', ['pfabric', 'dctcp']],
      ['limit', ['tcp']],
    ]);
    const text = notes[0].paragraphs.join(' ');
    expect(text).toMatch(/pending bytes: the bytes of the flows that have arrived and not yet finished/);
    expect(text).toMatch(/the same protocol over more flows gives other numbers/);
    expect(text).toMatch(/section 4\.3 \(Figure 7\)/);
    expect(stabilityNotes([{ label: 'ideal', summary: sum(true) }])).toEqual([]);
  });
});

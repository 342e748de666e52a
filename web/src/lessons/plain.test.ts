// Plain language in what a person reads: the prediction menu's metric and
// scope names, answers in their units, the "copied" note of a share link.

import { describe, expect, it } from 'vitest';
import { METRICS, SCOPES, metricLabel, metricText, metricValueText, scopeLabel } from './lesson';
import { copiedNote } from '../export/clipboard';

describe('plain language', () => {
  it('names every metric and scope in words, never by its key', () => {
    for (const m of METRICS) {
      expect(metricLabel(m)).not.toMatch(/_/);
      expect(metricLabel(m)).not.toBe(m);
    }
    for (const s of SCOPES) expect(scopeLabel(s)).toMatch(/flows/);
    expect(metricLabel('first_hop_drops')).toBe('packets dropped at the first hop (host NIC)');
    expect(metricText({ metric: 'mean_slowdown', scope: 'short' })).toBe('mean slowdown of short flows (under 100 KB)');
    expect(metricText({ metric: 'drop_rate', scope: 'short' })).toBe('percentage of data packets dropped');
  });

  it('shows an answer in its unit: percentages, microseconds, a packet count', () => {
    expect(metricValueText('drop_rate', 0.0123)).toBe('1.23 %');
    expect(metricValueText('afct_us', 412.345)).toBe('412.3 µs');
    expect(metricValueText('first_hop_drops', 1)).toBe('1 packet');
    expect(metricValueText('first_hop_drops', 2048)).toBe('2,048 packets');
    expect(metricValueText('throughput_gbps', 9.87)).toBe('9.87 Gbps');
    expect(metricValueText('mean_slowdown', 1.23456)).toBe('1.235');
    expect(metricValueText('deadlines_met', null)).toBe('n/a');
  });

  it('says whether a link reached the clipboard', () => {
    expect(copiedNote(true, 'link', 'it is in the address bar')).toBe('Link copied to the clipboard');
    expect(copiedNote(false, 'link', 'it is in the address bar')).toBe('Could not copy the link: it is in the address bar');
  });
});

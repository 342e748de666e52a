// The parameter panel: scenario, protocols side by side, topology size,
// workload, load, flows, buffer, ECN threshold, priority queues, DCTCP's
// end-host profile, seed. Edits are checked as
// they are typed (field-named messages) and applied with one button, which
// reloads every run from time zero with the same arrivals for all.

import { memo, useMemo, useState } from 'react';
import { SCENARIOS, scenarioNamed } from '../scenarios';
import { DCTCP_PROFILES } from '../engine/names.generated';
import {
  DCTCP_FAMILY,
  DCTCP_PROFILE_NAMES,
  DEFAULT_PROTOCOL,
  DESCRIPTORS,
  MAX_SIDE_BY_SIDE,
  NAMED_CDFS,
  PROTOCOLS,
  dctcpProfileOf,
  validateSettings,
  type DctcpProfile,
  type Protocol,
  type Settings,
} from '../state/settings';

/** What a DCTCP profile sets, in words: "alpha 1, initial window 12, min RTO 200 µs, ACK every packet". */
export function describeProfile(name: string): string {
  const d = DCTCP_PROFILES[name as DctcpProfile];
  if (!d) return 'unknown profile';
  const rto = d.min_rto_us >= 1000 ? `${d.min_rto_us / 1000} ms` : `${d.min_rto_us} µs`;
  const acks = d.delayed_ack ? 'delayed ACKs' : 'ACK every packet';
  return `alpha ${d.initial_alpha}, initial window ${d.init_cwnd}, min RTO ${rto}, cut to ≥ ${d.min_cwnd_after_cut}, ${acks}`;
}


/** Sets `obj.a.b.c = v` on a deep copy (undefined deletes). */
export function setPath<T extends Record<string, any>>(obj: T, path: string, v: unknown): T {
  const out = structuredClone(obj);
  const keys = path.split('.');
  let o: any = out;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  if (v === undefined) delete o[keys[keys.length - 1]];
  else o[keys[keys.length - 1]] = v;
  return out;
}

/** Reads a number typed in a field: '' is undefined (use the default), otherwise Number (may be NaN). */
function num(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/** The settings form (memoized: it re-renders only when its settings or the engine's error change, not on every frame). */
export const ParamPanel = memo(function ParamPanel({ settings, onApply, engineError }: { settings: Settings; onApply: (s: Settings) => void; engineError: string | null }) {
  const [draft, setDraft] = useState<Settings>(settings);
  const [paramsText, setParamsText] = useState(() => JSON.stringify(settings.scenario.params ?? {}, null, 1));
  const [paramsError, setParamsError] = useState<string | null>(null);
  const errs = useMemo(() => {
    const e = validateSettings(draft);
    if (paramsError) e.push({ field: 'params', message: paramsError });
    return e;
  }, [draft, paramsError]);
  const errFor = (f: string) => errs.filter((e) => e.field === f || e.field.startsWith(f + '.')).map((e) => e.message).join('; ');
  const sc = draft.scenario;
  const topo = sc.topology ?? {};
  const w = sc.workload ?? {};
  const edit = (path: string, v: unknown) => {
    const scenario = setPath(sc, path, v);
    setDraft({ ...draft, scenario });
    if (path.startsWith('params.')) setParamsText(JSON.stringify(scenario.params ?? {}, null, 1));
  };
  const editParams = (text: string) => {
    setParamsText(text);
    try {
      const v = JSON.parse(text === '' ? '{}' : text);
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`must be an object such as {"${DEFAULT_PROTOCOL}": {"buffer_bytes": 36000}}`);
      setParamsError(null);
      setDraft({ ...draft, scenario: { ...sc, params: v } });
    } catch (e) {
      setParamsError(e instanceof Error ? e.message : String(e));
    }
  };
  const field = (label: string, path: string, value: unknown, hint: string, testid: string) => (
    <label className="field">
      <span>{label}</span>
      <input
        data-testid={testid}
        value={value === undefined || (typeof value === 'number' && Number.isNaN(value)) ? '' : String(value)}
        onChange={(e) => edit(path, num(e.target.value))}
        placeholder={hint}
        inputMode="decimal"
      />
      {errFor(path) && <em className="error" data-testid={`error-${path}`}>{path}: {errFor(path)}</em>}
    </label>
  );
  const toggle = (p: Protocol) => {
    const has = draft.protocols.includes(p);
    const protocols = has ? draft.protocols.filter((x) => x !== p) : [...draft.protocols, p];
    setDraft({ ...draft, protocols });
  };

  return (
    <form
      className="params"
      data-testid="params"
      onSubmit={(e) => {
        e.preventDefault();
        if (errs.length === 0) onApply(draft);
      }}
    >
      <h2>Settings</h2>
      <label className="field">
        <span>scenario</span>
        <select
          data-testid="scenario-select"
          value={String(sc.name)}
          onChange={(e) => {
            const s = scenarioNamed(e.target.value);
            if (s) setDraft({ scenario: s, protocols: draft.protocols.length ? draft.protocols : [s.protocol ?? DEFAULT_PROTOCOL] });
          }}
        >
          {SCENARIOS.map((s) => (
            <option key={String(s.name)} value={String(s.name)}>
              {String(s.name)}
            </option>
          ))}
          {!SCENARIOS.some((s) => s.name === sc.name) && <option value={String(sc.name)}>{String(sc.name)} (shared)</option>}
        </select>
      </label>
      <fieldset className="protocols">
        <legend>protocols, side by side (up to {MAX_SIDE_BY_SIDE})</legend>
        {PROTOCOLS.map((p) => (
          <label key={p} className="check">
            <input type="checkbox" data-testid={`protocol-${p}`} checked={draft.protocols.includes(p)} onChange={() => toggle(p)} /> <span title={DESCRIPTORS[p].summary}>{p}</span>
          </label>
        ))}
        {errFor('protocols') && <em className="error">protocols: {errFor('protocols')}</em>}
      </fieldset>
      {topo.kind === 'leaf_spine' && (
        <fieldset>
          <legend>leaf-spine fabric</legend>
          {field('racks', 'topology.racks', topo.racks, '9', 'racks')}
          {field('hosts per rack', 'topology.hosts_per_rack', topo.hosts_per_rack, '16', 'hosts-per-rack')}
          {field('spines', 'topology.spines', topo.spines, '4', 'spines')}
        </fieldset>
      )}
      <fieldset>
        <legend>workload</legend>
        {w.sizes?.kind === 'cdf' && (
          <label className="field">
            <span>flow sizes</span>
            <select data-testid="cdf-select" value={w.sizes.name} onChange={(e) => edit('workload.sizes', { kind: 'cdf', name: e.target.value })}>
              {NAMED_CDFS.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
        )}
        {w.load !== undefined && field('load (0, 1]', 'workload.load', w.load, '0.6', 'load')}
        {w.flows !== undefined && field('flows', 'workload.flows', w.flows, '10000', 'flows')}
        {field('seed', 'seed', sc.seed, '1', 'seed')}
      </fieldset>
      <fieldset>
        <legend>switch ports</legend>
        {draft.protocols.flatMap((p) =>
          DESCRIPTORS[p].fields.map((f) => (
            <div key={`${p}.${f.key}`} title={`${f.label}: ${f.source}`}>
              {field(
                `${DESCRIPTORS[p].label} ${f.label}${f.unit ? ` (${f.unit})` : ''}${f.max !== null ? ` (${f.min} to ${f.max})` : ''}`,
                `params.${p}.${f.key}`,
                sc.params?.[p]?.[f.key],
                `${f.default} (default)`,
                `param-${p}-${f.key}`,
              )}
            </div>
          )),
        )}
        <p className="note">
          {draft.protocols.map((p) => (
            <span key={p}>
              {DESCRIPTORS[p].summary}.{' '}
            </span>
          ))}
        </p>
      </fieldset>
      {draft.protocols.some((p) => DCTCP_FAMILY.has(p)) && (
        <fieldset>
          <legend>end hosts</legend>
          {draft.protocols
            .filter((p) => DCTCP_FAMILY.has(p))
            .map((p) => {
              const path = `params.${p}.profile`;
              const chosen = dctcpProfileOf(sc, p) ?? DCTCP_PROFILE_NAMES[0];
              return (
                <label key={path} className="field">
                  <span>{p} end-host profile</span>
                  <select data-testid={`profile-${p}`} value={chosen} onChange={(e) => edit(path, e.target.value)}>
                    {!(DCTCP_PROFILE_NAMES as string[]).includes(chosen) && <option value={chosen}>{chosen}</option>}
                    {DCTCP_PROFILE_NAMES.map((n, i) => (
                      <option key={n} value={n}>
                        {n}
                        {i === 0 ? ' (default)' : ''}
                      </option>
                    ))}
                  </select>
                  <small className="note">{describeProfile(chosen)}; a field given in the JSON below overrides it</small>
                  {errFor(path) && <em className="error" data-testid={`error-${path}`}>{path}: {errFor(path)}</em>}
                </label>
              );
            })}
          <p className="note">
            The DCTCP profiles ({[...DCTCP_FAMILY].map((p) => DESCRIPTORS[p as Protocol].label).join(', ')} take one): linux starts alpha at 1 as Linux does, ns2 at 0 as the DCTCP ns-2 scripts, both with pFabric Table 1's
            simulation settings; testbed_kernel is a Linux host's stack (200 ms minimum RTO, initial window 10, delayed ACKs with an immediate ACK when the CE mark
            changes).
          </p>
        </fieldset>
      )}
      <fieldset>
        <legend>protocol parameters (JSON)</legend>
        <p className="note">
          Any parameter of scenarios/scenario.schema.json, e.g. <code>{`{"${DEFAULT_PROTOCOL}": {"buffer_bytes": 36000}}`}</code>; unset values keep the papers'
          defaults. The engine checks them when you apply.
        </p>
        <textarea data-testid="params-json" aria-label="protocol parameters (JSON)" rows={5} spellCheck={false} value={paramsText} onChange={(e) => editParams(e.target.value)} />
        {paramsError && <em className="error" data-testid="error-params">params: {paramsError}</em>}
      </fieldset>
      {errFor('name') && <em className="error">name: {errFor('name')}</em>}
      {engineError && (
        <em className="error" data-testid="engine-error">
          engine: {engineError}
        </em>
      )}
      <button type="submit" data-testid="apply" disabled={errs.length > 0}>
        Apply and restart
      </button>
    </form>
  );
});

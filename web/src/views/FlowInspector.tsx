// The flow inspector: what happened to the flow the user clicked, in each
// run side by side (the same flow id is the same arrival in every run).

import type { RunState } from '../state/run';
import { fmtBytes, fmtTime } from '../format/format';

/** A panel describing one flow in one run: endpoints, size, start, completion, slowdown. */
export function FlowInspector({ run, flow, onClose }: { run: RunState; flow: number; onClose: () => void }) {
  const info = run.flowInfo;
  const name = (n: number) => run.topology?.nodes[n]?.name ?? `h${n}`;
  return (
    <div className="flow-inspector" data-testid="flow-inspector">
      <button className="close" onClick={onClose} aria-label="close">
        ×
      </button>
      <strong>flow {flow}</strong>{' '}
      {!info ? (
        <span>has not arrived yet at t = {fmtTime(run.nowPs)}</span>
      ) : (
        <span>
          {name(info.record.src)} → {name(info.record.dst)}, {fmtBytes(info.record.size)}, arrived at {fmtTime(info.record.start)}
          {info.record.end !== null ? (
            <>
              , finished at {fmtTime(info.record.end)}: FCT {fmtTime(info.fct_ps!)} against an ideal {fmtTime(info.record.ideal)}, slowdown{' '}
              <b data-testid="flow-slowdown">{info.slowdown!.toFixed(3)}</b>
            </>
          ) : (
            <>, still in progress at t = {fmtTime(run.nowPs)} (ideal FCT {fmtTime(info.record.ideal)})</>
          )}
          {info.record.deadline !== null && <>, deadline {fmtTime(info.record.deadline)}</>}
          {info.record.background && <> (a long-lived background flow: simulated, not measured)</>}
        </span>
      )}
    </div>
  );
}

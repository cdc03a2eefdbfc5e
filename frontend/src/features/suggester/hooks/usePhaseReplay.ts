/**
 * The phases of a collection as the screen shows them: the task keeps every message it has
 * shown (`phases`, oldest first), and a poll once a second misses the short ones, so the
 * screen plays on through each phase it has not shown yet, in order, `PHASE_MS` apiece. A
 * collection resumed after a reload starts at its current phase.
 */
import { useEffect, useState } from 'react';

/** How long each phase the polls missed is shown. */
export const phaseTiming = { phaseMs: 500 };

export interface PhaseReplay {
  /** The phase on screen (null before the first poll). */
  phase: string | null;
  /** The phases shown so far, in order, the current one last. */
  shown: string[];
  /** Every phase the task has passed is on screen, the last for at least one step. */
  caughtUp: boolean;
}

export function usePhaseReplay(phases: readonly string[], resumed: boolean): PhaseReplay {
  const [played, setPlayed] = useState(() => (resumed ? phases.length : 0));
  // The phase count whose last phase has been on screen for a whole step.
  const [settledAt, setSettledAt] = useState(-1);
  const target = phases.length;
  // The first phase shows as soon as there is one.
  const count = Math.max(played, Math.min(1, target));
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (count < target) setPlayed(count + 1);
      else setSettledAt(count);
    }, phaseTiming.phaseMs);
    return () => window.clearTimeout(timer);
  }, [count, target]);
  const shown = phases.slice(0, count);
  return { phase: shown.at(-1) ?? null, shown, caughtUp: count >= target && settledAt === count };
}

import type { SqliteSyncStore } from '../../syncStore';

type FoldSteps = Pick<SqliteSyncStore, 'beginFold' | 'endFold'>;

/** A fold's start and end on SQLite: the instance's own statements in turn (each answers in this process). */
export function sqliteFold(q: Omit<SqliteSyncStore, keyof FoldSteps>): FoldSteps {
  return {
    beginFold() {
      const captures = q.captures();
      if (captures.length === 0) return { captures, instance: null };
      const instance = q.instance();
      q.pauseCapture();
      return { captures, instance };
    },
    endFold(origin, lastSeq, lastHlc, advanced) {
      q.saveClock(lastSeq, lastHlc);
      if (advanced) q.setVector(origin, lastSeq);
      q.resumeCapture();
      q.dropCapturesUpTo(q.lastCaptureId());
    },
  };
}

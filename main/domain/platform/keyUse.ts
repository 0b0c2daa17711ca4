import type { EngineContext } from '../context';
import { SYSTEM_ACTOR } from '../context';
import { recordApiKeyUse } from '../../../db/queries/apiKeys';

/** A key's "last used" is for people ("this phone was last seen Tuesday"): a minute is exact enough. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/**
 * Notes when each API key was last used, for the settings screen's key list. Written at most once a
 * minute per key, so a busy scanner does not turn every read into a write.
 */
export function createKeyUse(ctx: EngineContext) {
  const lastWritten = new Map<number, number>();
  /** Whether noteUse would write now (asked first, so the other calls of the minute cost no promise). */
  function isDue(keyId: number | null): keyId is number {
    if (keyId === null) return false;
    const previous = lastWritten.get(keyId);
    return previous === undefined || ctx.clock.now().getTime() - previous >= KEY_USE_RESOLUTION_MS;
  }
  return {
    isDue,

    async noteUse(keyId: number | null): Promise<void> {
      if (!isDue(keyId)) return;
      lastWritten.set(keyId, ctx.clock.now().getTime());
      await ctx.write(SYSTEM_ACTOR, (tx) => recordApiKeyUse(tx.db, keyId, tx.now));
    },
  };
}

export type KeyUseService = ReturnType<typeof createKeyUse>;

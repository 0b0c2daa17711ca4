import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger } from './ledger';
import { saleBody, type OfficeHub } from './hub';

export interface AgentTally {
  booked: number;
  /** Answers other than 200 (the hub's refusals, 5xx): each is retried with the same booking. */
  refused: number;
}

/** A wait of about `meanMs` (uniform 0.5×..1.5×), so agents and desks do not act in step. */
export const jittered = (meanMs: number) => meanMs * (0.5 + Math.random());

const RETRIES = 5;

/**
 * Agent `no` books through the hub's API with its own agent key, one booking about every
 * `everyMs`, until `day.over`; `phase` keeps its markers apart from its bookings of an earlier phase. A refusal the hub answers with 5xx is retried (the same booking, so
 * the end-of-day check would see a doubled one); a 4xx is the harness's own mistake and stops the run.
 */
export async function runAgent(no: number, phase: string, key: string, hub: OfficeHub, ledger: Ledger, everyMs: number, tally: AgentTally, day: { over: boolean }): Promise<void> {
  for (let n = 0; ; n++) {
    await sleep(jittered(everyMs));
    if (day.over) return;
    const marker = `OD-A${no}${phase}-${n}`;
    const body = saleBody(hub.productCode, hub.startTimes[n % hub.startTimes.length], marker, false);
    for (let attempt = 0; ; attempt++) {
      const answer = await hub.post('/v1/bookings', body, key);
      if (answer.status === 200) {
        ledger.record({ marker, deskNo: null, at: performance.now() });
        tally.booked++;
        break;
      }
      tally.refused++;
      if (answer.status < 500 || attempt >= RETRIES) throw new Error(`agent ${no}: POST /v1/bookings answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
      await sleep(200);
    }
  }
}

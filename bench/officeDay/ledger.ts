/** One sale of the simulated day, told apart everywhere by its marker (the customer's last name). */
export interface Sale {
  marker: string;
  /** The desk that sold it as a walk-up, or null for an agent's booking on the hub. */
  deskNo: number | null;
  /** When its write was acknowledged (performance.now(), ms): the desk's commit, or the hub's answer to the agent. */
  at: number;
}

/**
 * Every sale of the day and when each desk first held it. A desk checks, after each of its
 * exchanges, which sales it has not seen yet are now in its database; the time from a sale to the
 * end of the exchange that brought it is its propagation to that desk.
 */
export class Ledger {
  readonly sales: Sale[] = [];
  /** Desk-to-desk: a walk-up sold on one desk, held by another (ms). */
  readonly deskToDesk: number[] = [];
  /** Hub-to-desk: an agent's booking on the hub, held by a desk (ms). */
  readonly hubToDesk: number[] = [];
  private readonly unseen = new Map<number, Map<string, Sale>>();

  addDesk(deskNo: number): void {
    this.unseen.set(deskNo, new Map());
  }

  record(sale: Sale): void {
    this.sales.push(sale);
    for (const [deskNo, unseen] of this.unseen) if (deskNo !== sale.deskNo) unseen.set(sale.marker, sale);
  }

  /** The markers `deskNo` has not seen yet (what its check after an exchange looks for). */
  unseenBy(deskNo: number): string[] {
    return [...this.unseen.get(deskNo)!.keys()];
  }

  /** `deskNo` holds these markers as of `now`. */
  seen(deskNo: number, markers: readonly string[], now: number): void {
    const unseen = this.unseen.get(deskNo)!;
    for (const marker of markers) {
      const sale = unseen.get(marker);
      if (!sale) continue;
      unseen.delete(marker);
      (sale.deskNo === null ? this.hubToDesk : this.deskToDesk).push(now - sale.at);
    }
  }

  /** Sales some desk has still not seen. */
  stillUnseen(): number {
    let n = 0;
    for (const unseen of this.unseen.values()) n += unseen.size;
    return n;
  }
}

/** The p-th percentile (0..1) of samples, nearest rank; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

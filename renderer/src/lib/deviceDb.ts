/**
 * What this device keeps in IndexedDB (it outlives a reload and a browser restart, and a window of
 * days' bookings is larger than localStorage likes): the device's `outbox` by eventId (the desk's
 * events and the scanner's scans), `meta` for the scanner's window copy (one record), its window
 * setting and day summary. `manifests` held the per-session copies of older builds: emptied once on
 * load (renderer/src/scanner/copies.ts). The database keeps the name it had when only the scanner
 * used it, so nothing stored is lost.
 */
const NAME = 'tourdesk-scanner';
const STORES = ['manifests', 'outbox', 'meta'] as const;
type Store = (typeof STORES)[number];

/** How long an open may wait (another tab holding an old version blocks it) before the device says so. */
const OPEN_TIMEOUT_MS = 4_000;
/** After a failure, calls fail at once for a while instead of each waiting again; then an open is tried again. */
const RETRY_AFTER_MS = 30_000;

let opening: Promise<IDBDatabase> | null = null;
function db(): Promise<IDBDatabase> {
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DOMException('IndexedDB did not open (blocked by another tab?)', 'TimeoutError')), OPEN_TIMEOUT_MS);
    const request = indexedDB.open(NAME, 1);
    request.onupgradeneeded = () => {
      for (const store of STORES) if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
    };
    request.onsuccess = () => {
      clearTimeout(timer);
      resolve(request.result);
    };
    request.onerror = () => {
      clearTimeout(timer);
      reject(request.error);
    };
  }).catch((error: unknown) => {
    setTimeout(() => (opening = null), RETRY_AFTER_MS);
    throw error;
  });
  return opening;
}

function run<T>(store: Store, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return db()
    .then(
      (d) =>
        new Promise<T>((resolve, reject) => {
          const tx = d.transaction(store, mode);
          const request = work(tx.objectStore(store));
          // Resolve once the write is durable, not when the request succeeds.
          tx.oncomplete = () => resolve(request.result);
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
        }),
    )
    .then(
      (result) => {
        if (mode === 'readwrite') setProblem(null);
        return result;
      },
      (error: unknown) => {
        setProblem(error);
        throw error;
      },
    );
}

/**
 * Why this device cannot keep its data (storage full, blocked, or not allowed), or null: said on
 * screen, without stopping anything (what needs the engine still goes to it while online).
 */
let problem: string | null = null;
const watchers = new Set<() => void>();
function setProblem(error: unknown) {
  const next = error === null ? null : (error as { name?: string })?.name === 'QuotaExceededError' ? 'full' : 'unavailable';
  if (next === problem) return;
  problem = next;
  for (const watcher of watchers) watcher();
}
export const deviceDbProblem = (): string | null => problem;
export function onDeviceDbProblem(watcher: () => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

export const idbGet = <T>(store: Store, key: IDBValidKey) => run<T | undefined>(store, 'readonly', (s) => s.get(key));
export const idbAll = <T>(store: Store) => run<T[]>(store, 'readonly', (s) => s.getAll());
export const idbPut = (store: Store, key: IDBValidKey, value: unknown) => run(store, 'readwrite', (s) => s.put(value, key)).then(() => undefined);
export const idbClear = (store: Store) => run(store, 'readwrite', (s) => s.clear()).then(() => undefined);
export const idbCount = (store: Store) => run<number>(store, 'readonly', (s) => s.count());
export const idbDelete = (store: Store, key: IDBValidKey) => run(store, 'readwrite', (s) => s.delete(key)).then(() => undefined);

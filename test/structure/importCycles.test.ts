import { describe, expect, it } from 'vitest';
import { importGraph, sourceFiles } from './sourceTree';

/**
 * No import cycle anywhere in main/, db/, renderer/src or preload/, type-only imports included: a
 * cycle means two modules are one module, and the layers can no longer be read (or split) one at a time.
 */

/** The strongly connected groups of two or more files (Tarjan), each as one cycle through them. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    order.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!order.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) groups.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return groups.map((group) => cycleThrough(graph, new Set(group)));
}

/** A shortest path from the group's first file back to itself, inside the group (what to untangle). */
function cycleThrough(graph: Map<string, string[]>, group: Set<string>): string[] {
  const [start] = [...group].sort();
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of graph.get(file) ?? []) {
      if (!group.has(target) || cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      if (target === start) queue.length = 0;
      else queue.push(target);
    }
  }
  const path = [start];
  for (let file = cameFrom.get(start)!; file !== start; file = cameFrom.get(file)!) path.unshift(file);
  return [start, ...path];
}

describe('import cycles', () => {
  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']], ['d.ts', []]]);
    expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('sees type-only imports, re-exports and import() as edges', () => {
    const graph = importGraph(['main/domain/checkin/manifests.ts', 'main/domain/checkin/index.ts', 'renderer/src/scanner/useCamera.ts']);
    expect(graph.get('main/domain/checkin/manifests.ts')).toContain('main/domain/checkin/manifestAssembly.ts');
    expect(graph.get('main/domain/checkin/manifests.ts')).toContain('main/domain/context.ts');
    expect(graph.get('main/domain/checkin/index.ts')).toContain('main/domain/checkin/manifests.ts');
    expect(graph.get('renderer/src/scanner/useCamera.ts')).toContain('renderer/src/scanner/decoder.ts');
  });

  it('has none in main/, db/, renderer/src and preload/', () => {
    const cycles = cyclesOf(importGraph(sourceFiles()));
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});

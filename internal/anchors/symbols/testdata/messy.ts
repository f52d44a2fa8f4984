import {load,save} from './io'
export interface Quote { readonly symbol: string, price(): number }
export class RateBook {
  private entries = new Map<string,number>()
  record(symbol: string, price: number): void { const rounded = Math.round(price*100)/100; this.entries.set(symbol, rounded) }
  lookup(symbol: string): number|undefined { return this.entries.get(symbol) }
  all(): Array<[string, number]> { return [...this.entries].filter(e => e[1] > 0).map(([k, v]) => [k, v * 1.50]) }
}
export const normalise = (input: string): string => { const trimmed = input.trim(); return trimmed.toUpperCase() }
export function refresh(source: string, target: string, options: { retries: number; timeoutMs: number; verbose: boolean }): Promise<void> {
  return load(source).then(data => save(target, data, {retries: options.retries, timeout: options.timeoutMs}))
}
const table = {'a': 1, b: 2, "c-d": 3}
export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

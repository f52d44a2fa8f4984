import { load } from './io';

export interface Quote {
  readonly symbol: string;
  price(): number;
}

export class RateBook {
  private entries = new Map<string, number>();

  record(symbol: string, price: number): void {
    const rounded = Math.round(price * 100) / 100;
    this.entries.set(symbol, rounded);
  }

  lookup(symbol: string): number | undefined {
    return this.entries.get(symbol);
  }

  size(): number {
    return 0;
  }
}

export const normalise = (input: string): string => {
  const trimmed = input.trim();
  return trimmed.toUpperCase();
};

export function refresh(source: string): Promise<void> {
  return load(source).then(() => undefined);
}

export namespace NS {
  export namespace Inner {
    export class C {
      m(): void {}
    }
  }
  export interface Shape {
    area(): number;
    name: string;
  }
}

declare module 'legacy' {
  export function old(x: number): string;
}

export function parse(input: string): number;
export function parse(input: string, radix: number): number;
export function parse(input: string, radix?: number): number {
  return parseInt(input, radix ?? 10);
}

export class Cart {
  get total(): number { return 0; }
  set total(v: number) { this.t = v; }
  private t = 0;
}

export enum Color { Red = 'red', Green = 'green' }

export type Point = { x: number; y: number };
export type Id = string | number;

export default class Main {}
export default function () {}
const { x, y } = point;

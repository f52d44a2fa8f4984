export class Badge {
  constructor(private label: string) {}

  render(): string {
    return '<span class="badge">' + this.label + "</span>";
  }
}

/** A premium end (epoch seconds, product.md, Data premiumUntil) as a long English date in the reader's zone. */
export function formatValidUntil(epochSeconds: number): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(epochSeconds * 1000));
}

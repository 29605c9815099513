const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "5 minutes ago" / "5分钟前"; older than a week: the date. */
export function relativeTime(at: number, language: string, now = Date.now()): string {
  const elapsed = now - at;
  if (elapsed > 7 * 86_400_000) return new Date(at).toLocaleDateString(language);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return format.format(-Math.floor(elapsed / size), unit);
  }
  return format.format(0, 'minute');
}

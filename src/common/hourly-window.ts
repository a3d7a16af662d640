/** Start of the UTC clock hour of `at`: the window of the hourly rate limits (§1.11). */
export function clockHour(at = new Date()): Date {
  const hour = new Date(at);
  hour.setUTCMinutes(0, 0, 0);
  return hour;
}

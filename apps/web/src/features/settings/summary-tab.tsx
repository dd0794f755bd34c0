/** Settings › Summary tab: placeholder until its issue fills it. */
export default function SummaryTab() {
  return <p className="text-base-content/70">The Summary settings are not built yet.</p>;
}

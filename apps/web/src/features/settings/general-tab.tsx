/** Settings › General tab: placeholder until its issue fills it. */
export default function GeneralTab() {
  return <p className="text-base-content/70">The General settings are not built yet.</p>;
}

/** Settings › Account tab: placeholder until its issue fills it. */
export default function AccountTab() {
  return <p className="text-base-content/70">The Account settings are not built yet.</p>;
}

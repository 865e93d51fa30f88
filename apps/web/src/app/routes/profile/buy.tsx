/**
 * /profile/:id?/buy — My Purchases. Placeholder: the marketplace screens (features/collections)
 * fill it in.
 */
export default function ProfileBuyRoute() {
  return (
    <div className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
      Coming soon
    </div>
  );
}

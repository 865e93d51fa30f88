import { useParams } from 'react-router';

/**
 * /profile/:id?/selling — the collections a user sells. Placeholder: the marketplace screens
 * (features/collections) fill it in. `id` is absent on the own profile.
 */
export default function ProfileSellingRoute() {
  const { id } = useParams();
  return (
    <div data-user-id={id ?? ''} className="rounded-2xl border border-dashed border-slate-300 px-6 py-16 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
      Coming soon
    </div>
  );
}

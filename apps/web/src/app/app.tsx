export function App() {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-3xl font-semibold">Coffer</h1>
      <p className="mt-2 text-slate-600">Trade digital resources with ease. Upload, buy, and sell your digital assets.</p>
    </main>
  );
}

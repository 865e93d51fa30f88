/**
 * The create screen (/upload): title, description, price (whole points), banner with preview, and
 * the files (hashed and uploaded while the form is filled in). 'Publish' and 'Save as draft' both
 * create the collection (banner first), then attach each uploaded file (collection/resource/add) at
 * once and each file still uploading the moment it finishes; 'Publish' then publishes it. One
 * outcome: 'Collection created successfully!' and the collection page, or one message on the form.
 * A file that did not upload (or an empty one, refused before it starts) is retried, removed, or
 * skipped with 'Publish without it' before anything is created. The collection is created once:
 * after a failure pressing again goes on with the same collection.
 *
 * The files come from the uploads feature through {@link CollectionFiles}: features do not import
 * each other, so app/routes/upload.tsx wires the upload queue in.
 *
 * The same form edits a collection (product §24, /collection/{id}/edit, `editing`): the fields start
 * from the collection, files are managed on its page, and 'Save changes' sends collection/update
 * (a new banner is uploaded first), toasts 'Collection updated successfully!' and goes back to it.
 *
 * Licence keys (product §28): a toggle and an optional activation limit; when keys are on (or the
 * settings changed while editing), licence/settings is sent after the collection is created or saved.
 */
import {
  COLLECTION_DESC_MAX,
  CollectionAmountSchema,
  CollectionTitleSchema,
  LICENCE_MAX_ACTIVATIONS,
  type Collection,
  type LicenceSettings,
} from '@coffer/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Send, Save } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { focusFirstError } from '@/lib/focus-first-error';
import { leaveGuardOptions, useLeaveWarning } from '@/lib/use-leave-warning';
import { Link, useNavigate } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, inputClasses, TextField } from '@/components/ui/input';
import { PageContainer, PageHeader } from '@/components/ui/page';
import { cn } from '@/lib/cn';
import toast from 'react-hot-toast';
import { getErrorMessage, toastError } from '@/lib/api-client';
import { useCreateCollection } from '../api/create-collection';
import { collectionKeys } from '@/lib/market-keys';
import { usePublishCollection } from '../api/publish-collection';
import { useUpdateCollection } from '../api/update-collection';
import { addResourceToCollection } from '../api/add-resource';
import { setLicenceSettings } from '../api/licence-settings';
import { BannerPicker } from './banner-picker';

interface FormErrors {
  title?: string;
  desc?: string;
  amount?: string;
  files?: string;
  maxActivations?: string;
}

/** The activation limit typed: '' is no limit; else a whole number from 1 to LICENCE_MAX_ACTIVATIONS. */
function parseLimit(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+$/.test(t)) return 'invalid';
  const n = Number(t);
  return n >= 1 && n <= LICENCE_MAX_ACTIVATIONS ? n : 'invalid';
}

type Phase = 'idle' | 'creating' | 'uploading' | 'attaching' | 'publishing' | 'saving';

const PHASE_TEXT: Record<Phase, string> = {
  idle: '',
  saving: 'Saving...',
  creating: 'Creating the collection...',
  uploading: 'Adding the files as their uploads finish...',
  attaching: 'Adding the files...',
  publishing: 'Publishing...',
};

const them = (n: number) => (n === 1 ? 'it' : 'them');

export const UploadTexts = {
  /** Files that did not upload, before a create; `retryable` of them may succeed on Retry (not an empty file). */
  failedFiles: (failed: number, retryable: number) =>
    `${failed} file${failed === 1 ? '' : 's'} did not upload. ${retryable > 0 ? 'Retry or remove' : 'Remove'} ${them(failed)}, or go on without ${them(failed)}.`,
  /** The one outcome of a create whose uploads partly failed while it waited (the finished ones are attached). */
  partlySaved: (done: number, failed: number) =>
    `The collection was saved with ${done} file${done === 1 ? '' : 's'}; ${failed} did not upload. Retry or remove ${them(failed)}, or go on without ${them(failed)}.`,
  /** The button that skips the files that did not upload and goes on. */
  skip: (publish: boolean, failed: number) => `${publish ? 'Publish' : 'Save as draft'} without ${them(failed)}`,
  created: 'Collection created successfully!',
  leave: 'Your files are still uploading or not yet in a collection. Leave this page and lose them?',
  needFile: 'Add at least one file to publish',
} as const;

/** A file once its upload settled: 'done' ones carry the resource the server verified. */
export interface SettledFile {
  status: string;
  resource: { id: string } | null;
}

/** What the create form needs of the files being uploaded (provided by the uploads feature). */
export interface CollectionFiles {
  /** Files added and not cancelled (publishing needs at least one). */
  liveCount: number;
  /** Files that failed, were refused (an empty file) or were cancelled: retried, removed or skipped before a create. */
  failedCount: number;
  /** Of `failedCount`, the files refused before they started (an empty file): Retry cannot help them. */
  refusedCount: number;
  /** Files uploaded or still on their way (neither failed nor cancelled). */
  okCount: number;
  /** Resolves once no file is waiting, hashing or uploading, with every file. */
  whenSettled(): Promise<readonly SettledFile[]>;
  /**
   * Calls `onDone` at once for each file already uploaded, then for each file the moment its upload
   * finishes (once per file). @returns a function that stops the calls.
   */
  eachFinished(onDone: (file: SettledFile) => void): () => void;
  /** Forgets every file that failed, was refused or was cancelled (skips them). */
  dropFailed(): void;
  /** The picker with a row and progress bar per file. */
  picker: ReactNode;
}

/**
 * @param files the files being uploaded (app/routes/upload.tsx builds them from the upload queue); create only
 * @param editing the collection to edit: the form saves it with collection/update instead of creating one
 */
export function CreateCollectionForm({
  files,
  editing,
  editingLicence,
}: {
  files?: CollectionFiles;
  editing?: Collection;
  /** The edited collection's licence settings. */
  editingLicence?: LicenceSettings;
}) {
  const descId = useId();
  const licenceId = useId();
  const [licenceOn, setLicenceOn] = useState(editingLicence?.enabled ?? false);
  const [maxActivations, setMaxActivations] = useState(
    editingLicence?.max_activations ? String(editingLicence.max_activations) : '',
  );
  const navigate = useNavigate();
  const client = useQueryClient();
  const [title, setTitle] = useState(editing?.title ?? '');
  const [desc, setDesc] = useState(editing?.desc ?? '');
  const [amount, setAmount] = useState(editing ? String(editing.amount) : '');
  const [banner, setBanner] = useState<File | null>(null);
  const [bannerError, setBannerError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [phase, setPhase] = useState<Phase>('idle');
  const [formError, setFormError] = useState<string | null>(null);
  /** Offered with a form error about files that did not upload: go on without them. */
  const [skipOffer, setSkipOffer] = useState<{ publish: boolean; failed: number } | null>(null);
  /** Files in the created collection so far (shown while waiting for the others). */
  const [attachedCount, setAttachedCount] = useState(0);
  const created = useRef<Collection | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const formErrorRef = useRef<HTMLDivElement>(null);
  const attached = useRef(new Set<string>());
  /** Set once the collection is saved with every file: leaving is then safe. */
  const finished = useRef(false);
  const create = useCreateCollection();
  const publish = usePublishCollection({ silent: true });
  const update = useUpdateCollection();
  const busy = phase !== 'idle';
  // Files picked (uploading, or uploaded but not yet in a collection) are lost when the page goes.
  useLeaveWarning(Boolean(files && files.liveCount > 0) && !finished.current, UploadTexts.leave, formRef);

  function validate(forPublish: boolean): FormErrors {
    const next: FormErrors = {};
    const t = CollectionTitleSchema.safeParse(title);
    if (!t.success) next.title = t.error.issues[0]?.message;
    if (desc.trim().length > COLLECTION_DESC_MAX) next.desc = `Description must be at most ${COLLECTION_DESC_MAX} characters`;
    const a = CollectionAmountSchema.safeParse(amount.trim() === '' ? undefined : amount.trim());
    if (amount.trim() === '') next.amount = 'Price is required';
    else if (!a.success) next.amount = a.error.issues[0]?.message;
    if (forPublish && files && files.liveCount === 0) next.files = UploadTexts.needFile;
    if (licenceOn && parseLimit(maxActivations) === 'invalid') {
      next.maxActivations = `Enter a whole number from 1 to ${LICENCE_MAX_ACTIVATIONS}, or leave it empty for no limit`;
    }
    return next;
  }

  /** Sends the licence settings when keys are on, or when they changed from the edited collection's. */
  async function saveLicence(collectionId: string) {
    const limit = parseLimit(maxActivations);
    const max = licenceOn && limit !== 'invalid' ? limit : null;
    const before = editingLicence ?? { enabled: false, max_activations: null };
    if (!licenceOn && !before.enabled) return;
    if (licenceOn === before.enabled && max === before.max_activations) return;
    await setLicenceSettings({ collectionId, enabled: licenceOn, maxActivations: max });
    void client.invalidateQueries({ queryKey: collectionKeys.licence(collectionId) });
  }

  async function save(current: Collection) {
    setFormError(null);
    const found = validate(false);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(formRef.current);
    setPhase('saving');
    try {
      await update.mutateAsync({
        collection_id: current.id,
        title: title.trim(),
        desc: desc.trim(),
        amount: Number(amount.trim()),
        bannerFile: banner,
      });
      await saveLicence(current.id);
      void navigate(`/collection/${current.id}`, leaveGuardOptions());
    } catch (err) {
      toastError(err, 'Failed to update the collection');
      setFormError(getErrorMessage(err));
    } finally {
      setPhase('idle');
    }
  }

  /**
   * Brings the form's message about the files into view once rendered (the failed rows above carry
   * alerts of their own, so the first alert is not this one) and focuses its skip button if any.
   */
  function showFormError() {
    requestAnimationFrame(() => {
      const box = formErrorRef.current;
      if (!box) return;
      box.scrollIntoView?.({ block: 'center' });
      box.querySelector('button')?.focus();
    });
  }

  /**
   * Creates (once), attaches the files as they finish and, for `publishNow`, publishes.
   * @param skipFailed the seller chose to go on without the files that did not upload
   */
  async function submit(publishNow: boolean, skipFailed = false) {
    if (!files) return;
    setFormError(null);
    setSkipOffer(null);
    const found = validate(publishNow);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstError(formRef.current);
    let step = 'idle' as Phase;
    const enter = (next: Phase) => {
      step = next;
      setPhase(next);
    };
    if (skipFailed) {
      files.dropFailed();
    } else if (files.failedCount > 0) {
      // A file that failed (or was refused, like an empty one) is retried, removed or skipped first:
      // nothing is created while the seller still has to decide about it.
      setFormError(UploadTexts.failedFiles(files.failedCount, files.failedCount - files.refusedCount));
      if (files.okCount > 0 || !publishNow) setSkipOffer({ publish: publishNow, failed: files.failedCount });
      return showFormError();
    }
    try {
      if (!created.current) {
        enter('creating');
        created.current = await create.mutateAsync({
          title: title.trim(),
          desc: desc.trim(),
          amount: Number(amount.trim()),
          // 'Save as draft' makes a Draft, so the badge says what the seller chose.
          draft: !publishNow,
          bannerFile: banner,
        });
        await saveLicence(created.current.id);
      }
      const collection = created.current;
      // The collection exists before any file goes into it (its title and price are checked above),
      // so a finished upload is attached right away: those already finished at once, the others the
      // moment each finishes, one after another. Waiting for every upload first would leave finished
      // files outside the collection until the slowest one ends (lost on a reload); creating the
      // collection when the first file finishes would need a title that may not be typed yet.
      // Until Publish, finished files are kept by this page, which warns before it is left.
      enter('uploading');
      let attaching = Promise.resolve();
      let attachError: unknown = null;
      const stop = files.eachFinished((file) => {
        const id = file.resource?.id;
        if (!id) return;
        attaching = attaching.then(async () => {
          if (attachError !== null || attached.current.has(id)) return;
          try {
            await addResourceToCollection(collection.id, id);
            attached.current.add(id);
            setAttachedCount(attached.current.size);
          } catch (err) {
            attachError = err;
          }
        });
      });
      let items: readonly SettledFile[];
      try {
        items = await files.whenSettled();
      } finally {
        stop();
      }
      enter('attaching');
      await attaching;
      void client.invalidateQueries({ queryKey: collectionKeys.detail(collection.id) });
      if (attachError !== null) throw attachError;
      const failed = items.filter((i) => i.status === 'failed' || i.status === 'cancelled').length;
      if (failed) {
        // One outcome: the collection is kept (pressing again reuses it) with what arrived.
        setFormError(UploadTexts.partlySaved(attached.current.size, failed));
        if (attached.current.size > 0 || !publishNow) setSkipOffer({ publish: publishNow, failed });
        return showFormError();
      }
      if (publishNow) {
        enter('publishing');
        // Silent: 'Collection created successfully!' below is the one outcome.
        await publish.mutateAsync(collection.id);
      }
      toast.success(UploadTexts.created);
      finished.current = true;
      void navigate(`/collection/${collection.id}`, leaveGuardOptions());
    } catch (err) {
      // The publish mutation toasts its own failure; the others are toasted here.
      if ((step as Phase) !== 'publishing') toastError(err, 'Failed to create the collection');
      setFormError(getErrorMessage(err));
    } finally {
      setPhase('idle');
    }
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void (editing ? save(editing) : submit(true));
  };

  return (
    <PageContainer className="max-w-4xl">
      {editing ? (
        <PageHeader
          title="Edit collection"
          description="Change what buyers see. Orders already placed keep the price they were placed at."
        />
      ) : (
        <PageHeader
          title="Create a collection"
          description="Add your files, set a price in points and publish when you are ready."
        />
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate className="space-y-6">
        <Card className="space-y-5 p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900 dark:text-white">Details</h2>
          <TextField
            label="Title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            error={errors.title}
            maxLength={100}
            disabled={busy}
            required
          />
          <Field label="Description" id={descId} error={errors.desc} hint={`${desc.length} / ${COLLECTION_DESC_MAX}`}>
            <textarea
              id={descId}
              value={desc}
              onChange={(e) => setDesc(e.target.value)}
              rows={4}
              maxLength={COLLECTION_DESC_MAX}
              disabled={busy}
              aria-invalid={errors.desc ? true : undefined}
              className={cn(inputClasses, 'resize-y')}
            />
          </Field>
          <TextField
            label="Price (points)"
            inputMode="numeric"
            placeholder="0"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={errors.amount}
            hint="A whole number of points; 0 makes it free."
            disabled={busy}
            containerClassName="max-w-xs"
          />
          <BannerPicker
            file={banner}
            error={bannerError}
            disabled={busy || Boolean(created.current)}
            current={editing?.banner}
            onChange={(f, err) => {
              setBanner(f);
              setBannerError(err);
            }}
          />
        </Card>

        <Card className="space-y-4 p-5 sm:p-6">
          <h2 className="font-semibold text-slate-900 dark:text-white">Licence keys</h2>
          <div className="flex items-start gap-3">
            <input
              id={licenceId}
              type="checkbox"
              checked={licenceOn}
              onChange={(e) => setLicenceOn(e.target.checked)}
              disabled={busy}
              className="mt-0.5 size-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-500"
            />
            <label htmlFor={licenceId} className="text-sm">
              <span className="font-medium text-slate-800 dark:text-slate-200">Give each buyer a licence key</span>
              <span className="block text-slate-500 dark:text-slate-400">
                Your software can check keys with POST /api/sl/v1/licence/validate (see the API reference at /api/docs). A refund revokes the key.
              </span>
            </label>
          </div>
          {licenceOn ? (
            <TextField
              label="Activation limit"
              inputMode="numeric"
              placeholder="No limit"
              value={maxActivations}
              onChange={(e) => setMaxActivations(e.target.value)}
              error={errors.maxActivations}
              hint="How many devices one key may activate; leave empty for no limit."
              disabled={busy}
              containerClassName="max-w-xs"
            />
          ) : null}
        </Card>

        {files ? (
          <Card className="space-y-4 p-5 sm:p-6">
            <h2 className="font-semibold text-slate-900 dark:text-white">Files</h2>
            {files.picker}
            {errors.files ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {errors.files}
              </p>
            ) : null}
          </Card>
        ) : null}
        {editing ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Files are added, replaced, removed and marked as free previews on the{' '}
            <Link to={`/collection/${editing.id}`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              collection page
            </Link>
            .
          </p>
        ) : null}

        {formError ? (
          <div
            ref={formErrorRef}
            role="alert"
            className="flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800 sm:flex-row sm:items-center sm:justify-between dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-300"
          >
            <p className="min-w-0">{formError}</p>
            {skipOffer && !busy ? (
              <Button
                variant="outline"
                size="sm"
                className="shrink-0 self-start sm:self-auto"
                onClick={() => void submit(skipOffer.publish, true)}
              >
                {UploadTexts.skip(skipOffer.publish, skipOffer.failed)}
              </Button>
            ) : null}
          </div>
        ) : null}

        <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-end">
          {busy ? (
            <p className="text-sm text-slate-500 sm:mr-auto dark:text-slate-400" aria-live="polite">
              {PHASE_TEXT[phase]}
              {phase === 'uploading' && attachedCount > 0
                ? ` ${attachedCount} file${attachedCount === 1 ? '' : 's'} added.`
                : ''}
            </p>
          ) : null}
          {editing ? (
            <>
              <Link to={`/collection/${editing.id}`} className={buttonVariants({ variant: 'outline' })}>
                Cancel
              </Link>
              <Button type="submit" isLoading={busy}>
                {busy ? null : <Save className="size-4" aria-hidden="true" />}
                Save changes
              </Button>
            </>
          ) : (
            <>
              <Button variant="outline" onClick={() => void submit(false)} disabled={busy}>
                <Save className="size-4" aria-hidden="true" />
                Save as draft
              </Button>
              <Button type="submit" isLoading={busy}>
                {busy ? null : <Send className="size-4" aria-hidden="true" />}
                Publish
              </Button>
            </>
          )}
        </div>
      </form>
    </PageContainer>
  );
}

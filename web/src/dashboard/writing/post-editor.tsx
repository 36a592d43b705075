/**
 * A post in the editor (`/dashboard?view=writing&post=<id>`): its title, summary, text (Markdown
 * beside the server's rendering of it on a wide screen, under a preview shown on asking on a
 * narrow one), address, language, tags and cover; saved as the owner types with `If-Match` (the
 * draft hooks the page's editor uses, with the post's source), published now (asked first) or at a
 * moment to come, unpublished (asked first), and reverted to a kept version. The bar above says
 * whether it is saved, where it stands (a draft, scheduled, live, unpublished) and whether the live
 * post shows this draft.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMediaQuery } from '../../components/use-media-query';
import { serverNow } from '../../api/client';
import type { Version } from '../../api/content';
import {
  listPosts,
  listPostVersions,
  loadPostDraft,
  postPreviewUrl,
  publishPost,
  revertPost,
  savePostDraft,
  type Post,
  type PostState,
} from '../../api/posts';
import { Notices, ProblemSummary } from '../shared/draft/draft-notices';
import type { DraftSource } from '../shared/draft/draft-source';
import { fieldId, Group, SelectField, TextField } from '../shared/draft/fields';
import { ImageUploadField } from '../shared/draft/image-upload-field';
import { languageName } from '../shared/draft/language-name';
import { PreviewFrame } from '../shared/draft/preview-frame';
import { PublishButton, VersionsPart } from '../shared/draft/publish-panel';
import { SaveStatus } from '../shared/draft/save-status';
import { StickyBar } from '../shared/draft/sticky-bar';
import { useDraftOf, type DraftStateOf } from '../shared/draft/use-draft-of';
import { useSaveShortcut } from '../shared/draft/use-save-shortcut';
import { BodyField } from './body-field';
import { postProblems, prunePostMedia } from './post-check';
import { postFailure, postField, postPlace } from './post-words';
import { ScheduleButton } from '../shared/draft/schedule-button';
import { dayText, momentText, postPath, publishedFrom, rememberPublished, standingOf } from './standing';
import { TagsField } from './tags-field';
import { UnpublishButton } from './unpublish-button';
import { useFocusWhenShown, type PageFacts } from './page-facts';

/** Where a post's unsaved edits wait across a reload, one place per post. */
export const postUnsavedKey = (id: string) => `portfolio:post-editor:unsaved:${id}`;

const explainPublish = postFailure('published');
const explainRevert = postFailure('reverted');
const NOTHING = 'post-nothing-to-publish';

function sourceOf(id: string): DraftSource<Post> {
  return {
    load: (signal) => loadPostDraft(id, signal),
    save: savePostDraft,
    problemsOf: postProblems,
    unsavedKey: postUnsavedKey(id),
  };
}

/** `value`, once it has stayed the same for `ms`: the preview is drawn again once saves settle, not at each. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The post as the server lists it (its newest version, its date, what is scheduled), asked again on asking and on returning to the tab. */
function usePostState(id: string) {
  const [known, setKnown] = useState<{ state: PostState | null; at: number } | null>(null);
  const refresh = useCallback(
    () =>
      listPosts().then(
        (posts) => setKnown({ state: posts.find((post) => post.id === id) ?? null, at: serverNow() }),
        () => {},
      ),
    [id],
  );
  useEffect(() => {
    void refresh();
    const again = () => void refresh();
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [refresh]);
  // A scheduled version's moment passing changes what the bar says: asked again just after it.
  useEffect(() => {
    const due = known?.state?.scheduledAt ? known.state.scheduledAt - known.at : null;
    if (due === null || due > 86_400_000) return;
    const timer = setTimeout(() => void refresh(), Math.max(0, due) + 1000);
    return () => clearTimeout(timer);
  }, [known, refresh]);
  return { state: known?.state ?? null, at: known?.at ?? 0, refresh };
}

export function PostEditor({
  id,
  page,
  focus,
  onClose,
}: {
  id: string;
  page: PageFacts | null;
  /** Moves focus where the view asked, once that is drawn (the heading, when the post was opened from the list). */
  focus: () => void;
  onClose: () => void;
}) {
  const source = useMemo(() => sourceOf(id), [id]);
  const draft = useDraftOf(source);
  const { document: post, problems, flush } = draft;
  const { state, at, refresh } = usePostState(id);
  const [published, setPublished] = useState(0);
  const wide = useMediaQuery('(min-width: 1024px)');
  const [previewShown, setPreviewShown] = useState(false);
  useSaveShortcut(flush);
  useFocusWhenShown(focus);

  // The revision and slug each publish here is made from, remembered (the server's list does not say them).
  const latest = useRef({ revision: 0, slug: '' });
  useEffect(() => {
    latest.current = { revision: draft.revision, slug: post?.slug ?? '' };
  }, [draft.revision, post?.slug]);
  const remember = useCallback(
    (version: Version) => {
      rememberPublished(id, { version: version.version, ...latest.current });
      setPublished((n) => n + 1);
      void refresh();
    },
    [id, refresh],
  );
  // An unpublishing leaves the draft as it was: the bar and the versions are asked again. Its button
  // goes with the live post, so focus moves to the bar's heading, from where its message follows.
  const unpublished = useCallback(() => {
    window.document.getElementById('post-heading')?.focus();
    setPublished((n) => n + 1);
    void refresh();
  }, [refresh]);
  // A revert makes the version the draft: what the draft is then is what is live.
  const reverted = useCallback(
    async (version: Version) => {
      const answer = await loadPostDraft(id);
      rememberPublished(id, { version: version.version, revision: answer.revision, slug: answer.document.slug });
      await draft.reload();
      setPublished((n) => n + 1);
      void refresh();
    },
    [id, draft, refresh],
  );

  const generation = useSettled(`${draft.revision}-${published}`, 600);
  // Kept the same across renders: the versions are asked for again only after a publish or a save.
  const listVersions = useCallback((signal?: AbortSignal) => listPostVersions(id, signal), [id]);
  const revert = useCallback((n: number) => revertPost(id, n), [id]);
  const back = (
    <a
      href="?view=writing"
      className="link inline-flex min-h-11 items-center text-sm"
      onClick={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      All posts
    </a>
  );

  if (draft.loadError || !post) {
    return (
      <div className="container-page py-6 md:py-8">
        <div className="flex min-h-11 items-center">
          <h1 className="text-heading font-bold text-white">Writing</h1>
        </div>
        <div className="mt-4 space-y-3">
          {draft.loadError ? (
            <>
              <p role="alert" className="field-error">
                The post could not be opened: {draft.loadError}
              </p>
              <button type="button" className="btn btn-secondary" onClick={() => void draft.reload()}>
                Try again
              </button>
            </>
          ) : (
            <p role="status" className="text-gray-400">
              Loading the post…
            </p>
          )}
          <p>{back}</p>
        </div>
      </div>
    );
  }

  const languages = page?.languages ?? [];
  const pageLanguage = languages[0] ?? post.language;
  const preview = (
    <PreviewFrame generation={generation} anchor="home" scheme={page?.scheme ?? 'dark'} languages={[post.language]} src={postPreviewUrl(id)} />
  );
  const goTo = (path: string) => {
    const field = window.document.getElementById(fieldId(postField(path)));
    field?.focus();
    field?.scrollIntoView({ block: 'center' });
  };

  return (
    <div className="container-page pt-4 pb-6 md:pt-6 md:pb-8">
      <PostBar draft={draft} state={state} at={at} pageLanguage={pageLanguage} onPublished={remember} onUnpublished={unpublished} />
      <p className="mt-2">{back}</p>
      <Notices draft={draft} name={(path) => (path ? postPlace(path).replace(/^The /, 'the ') : 'the whole post')} />
      {draft.conflict && (
        <p className="mt-2 flex flex-wrap items-center gap-x-3 text-sm text-gray-300">
          <button type="button" className="btn btn-ghost px-3" onClick={() => void draft.reload()}>
            Reload the saved draft
          </button>
          drops the changes made here and shows the post as it was saved elsewhere.
        </p>
      )}
      <ProblemSummary
        className="mt-3"
        paths={Object.keys(problems)}
        href={(path) => `#${fieldId(postField(path))}`}
        label={postPlace}
        onGo={goTo}
      />
      <form
        aria-label="Post"
        noValidate
        className="mt-4 space-y-6"
        onSubmit={(event) => {
          event.preventDefault();
          void flush();
        }}
      >
        <Group title="Title and summary">
          <TextField path="title" label="Title" value={post.title} problem={problems.title} onChange={(v) => draft.edit((d) => void (d.title = v))} />
          <TextField
            path="summary"
            label="Summary"
            hint="A sentence or two, shown in the lists of posts, the feeds and link previews (optional, at most 300 characters)."
            multiline
            required={false}
            value={post.summary}
            problem={problems.summary}
            onChange={(v) => draft.edit((d) => void (d.summary = v))}
          />
        </Group>
        <Group title="Text">
          {!wide && (
            <div>
              <button
                type="button"
                className="btn btn-secondary"
                aria-expanded={previewShown}
                aria-controls="post-preview"
                onClick={() => setPreviewShown((shown) => !shown)}
              >
                {previewShown ? 'Hide preview' : 'Show preview'}
              </button>
              <aside id="post-preview" aria-label="Preview" hidden={!previewShown} className="mt-4">
                {previewShown && preview}
              </aside>
            </div>
          )}
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <BodyField post={post} problem={problems.body} edit={draft.edit} />
            {wide && (
              <aside aria-label="Preview" className="sticky top-(--below-bar) min-w-0 self-start">
                {preview}
              </aside>
            )}
          </div>
        </Group>
        <Group title="Address, language and tags">
          <TextField
            path="slug"
            label="Address"
            hint={`Shown at ${postPath(post.slug || '…', post.language, pageLanguage)}. Made from the title when the post was begun and kept when the title changes. Once published, a changed address keeps the old one leading here (a permanent redirect), so links to it keep working.`}
            value={post.slug}
            problem={problems.slug}
            onChange={(v) => draft.edit((d) => void (d.slug = v))}
          />
          {languages.length > 0 && (languages.length > 1 || !languages.includes(post.language)) && (
            <SelectField
              path="language"
              label="Language"
              hint="The language the post is written in: it is listed, and its feeds are, on that language's pages."
              value={post.language}
              options={[...new Set([...languages, post.language])].map((tag) => ({ value: tag, label: `${languageName(tag)} (${tag})` }))}
              problem={problems.language}
              onChange={(v) => draft.edit((d) => void (d.language = v))}
            />
          )}
          <TagsField tags={post.tags} problems={problems} onChange={(tags) => draft.edit((d) => void (d.tags = tags))} />
          <ImageUploadField<Post>
            path="cover"
            label="Cover image"
            document={post}
            mediaId={post.cover ?? ''}
            problems={problems}
            edit={draft.edit}
            prune={prunePostMedia}
            resolve={(src) => src}
            keepAlt={() => true}
            onPoint={(d, image) => void (d.cover = image)}
            onRemove={(d) => void delete d.cover}
          />
        </Group>
      </form>
      <div className="mt-6">
        <VersionsPart
          generation={`${draft.revision}-${published}`}
          list={listVersions}
          revert={revert}
          explain={explainRevert}
          title="Versions of the post"
          none="Nothing published yet: the post has no address until it is."
          tagOf={(version, k, versions) => {
            // The newest version unpublishes the post when the list says so: then no version is live.
            const withdrawal = state?.unpublished ? state.version : null;
            if (version.version === withdrawal) return version.publishedAt > at ? 'unpublishing' : 'unpublished';
            if (version.publishedAt > at) return 'scheduled';
            const live = versions.findIndex((v) => v.publishedAt <= at);
            return k === live && version.version !== withdrawal ? 'live' : null;
          }}
          onReverted={(version) => void reverted(version).catch(() => {})}
        />
      </div>
    </div>
  );
}

/** The bar above the post: its title, whether it is saved, where it stands, whether the live post shows it, Unpublish, Schedule and Publish. */
function PostBar({
  draft,
  state,
  at: now,
  pageLanguage,
  onPublished,
  onUnpublished,
}: {
  draft: DraftStateOf<Post>;
  state: PostState | null;
  /** When the state was asked for. */
  at: number;
  pageLanguage: string;
  onPublished: (version: Version) => void;
  onUnpublished: () => void;
}) {
  const post = draft.document!;
  const standing = state ? standingOf(state, now) : null;
  const from = state ? publishedFrom(post.id, state.version) : null;
  // Whether the newest version was made from this draft: known only when it was published here.
  const same = from ? !draft.dirty && from.revision === draft.revision : null;
  const live = standing?.kind === 'live' ? postPath(from?.slug ?? post.slug, post.language, pageLanguage) : null;
  return (
    <StickyBar label="Draft and live post">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        {/* A row of its own on a narrow screen, with Schedule and Publish below it. */}
        <div className="flex min-w-0 flex-[1_1_100%] flex-wrap items-center gap-x-4 text-sm md:flex-[1_1_0%]">
          <div className="flex min-h-11 min-w-0 max-w-full items-center">
            <h1 id="post-heading" tabIndex={-1} className="truncate text-xl font-bold text-white">
              <span className="sr-only">Post: </span>
              {post.title || 'Untitled post'}
            </h1>
          </div>
          <SaveStatus draft={draft} />
          {standing && (
            <p className="text-gray-300">
              {standing.kind === 'draft' ? (
                'Not published yet'
              ) : standing.kind === 'scheduled' ? (
                <>
                  Scheduled for <time dateTime={new Date(standing.at).toISOString()}>{momentText(standing.at)}</time>
                </>
              ) : standing.kind === 'unpublished' ? (
                <>
                  Unpublished since <time dateTime={new Date(standing.since).toISOString()}>{dayText(standing.since)}</time>: publish to bring it back
                </>
              ) : (
                <>
                  Live since <time dateTime={new Date(standing.since).toISOString()}>{dayText(standing.since)}</time>
                  {standing.update !== null && <>; an update is scheduled for {momentText(standing.update)}</>}
                  {standing.withdraw !== null && <>; to be unpublished on {momentText(standing.withdraw)}</>}
                </>
              )}
            </p>
          )}
          {(standing?.kind === 'live' || standing?.kind === 'scheduled') && same !== null && (
            <p className={same ? 'text-gray-300' : 'text-amber-200'}>
              {same
                ? standing.kind === 'scheduled'
                  ? 'The scheduled version is this draft'
                  : 'The live post shows this draft'
                : 'Changes not yet published'}
            </p>
          )}
          {live && (
            <a href={live} target="_blank" rel="noopener" className="link">
              View the live post
            </a>
          )}
        </div>
        <span id={NOTHING} hidden>
          Nothing to publish: the live post shows this draft.
        </span>
        <UnpublishButton
          id={post.id}
          path={live ?? postPath(post.slug, post.language, pageLanguage)}
          live={standing?.kind === 'live'}
          update={standing?.kind === 'live' ? standing.update : null}
          onUnpublished={onUnpublished}
        />
        <ScheduleButton
          schedule={(at) => publishPost(post.id, at)}
          what="post"
          until="its address answers as if it were not published"
          saveFirst={draft.flush}
          explain={explainPublish}
          onScheduled={onPublished}
        />
        <PublishButton
          saveFirst={draft.flush}
          publish={() => publishPost(post.id)}
          explain={explainPublish}
          title="Publish the post?"
          confirmLabel="Publish the post now"
          nothing={standing?.kind === 'live' && standing.update === null && same ? NOTHING : undefined}
          onPublished={onPublished}
        />
      </div>
    </StickyBar>
  );
}

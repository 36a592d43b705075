/**
 * The Writing tab's list: a new post begun from its title (and its language, when the page has
 * several), then the posts in three groups, drafts never published, scheduled (with when) and
 * published (with their day), each leading to its editor.
 */
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, serverNow } from '../../api/client';
import { createPost, listPosts, type PostState } from '../../api/posts';
import { sentence } from '../../api/problems';
import { sessionEnded } from '../shared/session';
import { languageName } from '../shared/draft/language-name';
import { dayText, groupPosts, momentText, standingOf } from './standing';
import { useFocusWhenShown, type PageFacts } from './page-facts';

/** The posts as the server lists them, with when they were asked for (what is scheduled is told from it). */
function usePosts() {
  const [list, setList] = useState<{ posts: PostState[]; at: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    listPosts(controller.signal).then(
      (posts) => {
        setError(null);
        setList({ posts, at: serverNow() });
      },
      (cause: unknown) => {
        if (!controller.signal.aborted && !sessionEnded(cause)) setError(cause instanceof Error ? cause.message : String(cause));
      },
    );
    return () => controller.abort();
  }, [asked]);
  // A scheduled post's moment passing moves it to the published: the list is asked again just after it.
  useEffect(() => {
    const soonest = Math.min(...(list?.posts.map((post) => post.scheduledAt ?? Infinity) ?? []));
    const wait = soonest - (list?.at ?? 0);
    if (!list || !Number.isFinite(soonest) || wait > 86_400_000) return;
    const timer = setTimeout(() => setAsked((n) => n + 1), Math.max(0, wait) + 1000);
    return () => clearTimeout(timer);
  }, [list]);
  const reload = useCallback(() => setAsked((n) => n + 1), []);
  return { posts: list?.posts ?? null, at: list?.at ?? 0, error, reload };
}

export function PostList({ page, focus, onOpen }: { page: PageFacts | null; focus: () => void; onOpen: (id: string) => void }) {
  const { posts, at: now, error, reload } = usePosts();
  useFocusWhenShown(focus);
  const groups = posts ? groupPosts(posts, now) : null;
  const several = (page?.languages.length ?? 0) > 1;
  return (
    <div className="container-page py-6 md:py-8">
      <div className="flex min-h-11 items-center">
        <h1 className="text-heading font-bold text-white">Writing</h1>
      </div>
      <NewPost languages={several ? page!.languages : []} onCreated={onOpen} />
      <div className="mt-8 space-y-8">
        {error ? (
          <div>
            <p role="alert" className="field-error">
              The posts could not be loaded: {error}
            </p>
            <button type="button" className="btn btn-secondary mt-3" onClick={reload}>
              Try again
            </button>
          </div>
        ) : !groups ? (
          <p role="status" className="text-gray-400">
            Loading the posts…
          </p>
        ) : posts!.length === 0 ? (
          <p className="text-gray-400">No posts yet: give the first one a title above.</p>
        ) : (
          <>
            <PostGroup title="Drafts" posts={groups.drafts} several={several} onOpen={onOpen} detail={() => 'Not published yet'} />
            <PostGroup
              title="Scheduled"
              posts={groups.scheduled}
              several={several}
              onOpen={onOpen}
              detail={(post) => {
                const standing = standingOf(post, now);
                return standing.kind === 'scheduled' ? <>Scheduled for {moment(standing.at)}</> : null;
              }}
            />
            <PostGroup
              title="Published"
              posts={groups.published}
              several={several}
              onOpen={onOpen}
              detail={(post) => {
                const standing = standingOf(post, now);
                if (standing.kind !== 'live') return null;
                return (
                  <>
                    Published {moment(standing.since, dayText)}
                    {standing.update !== null && <> · an update is scheduled for {moment(standing.update)}</>}
                    {standing.withdraw !== null && <> · to be unpublished on {moment(standing.withdraw)}</>}
                  </>
                );
              }}
            />
            <PostGroup
              title="Unpublished"
              posts={groups.unpublished}
              several={several}
              onOpen={onOpen}
              detail={(post) => {
                const standing = standingOf(post, now);
                return standing.kind === 'unpublished' ? <>Unpublished {moment(standing.since, dayText)}: no address shows it</> : null;
              }}
            />
          </>
        )}
      </div>
    </div>
  );
}

function moment(ms: number, text = momentText) {
  return <time dateTime={new Date(ms).toISOString()}>{text(ms)}</time>;
}

function PostGroup({
  title,
  posts,
  several,
  onOpen,
  detail,
}: {
  title: string;
  posts: PostState[];
  /** The page has several languages: each post says its own. */
  several: boolean;
  onOpen: (id: string) => void;
  detail: (post: PostState) => React.ReactNode;
}) {
  const headingId = useId();
  if (posts.length === 0) return null;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-white">
        {title} <span className="text-base font-normal text-gray-400">({posts.length})</span>
      </h2>
      <ul className="mt-3 divide-y divide-gray-800 rounded-xl border border-gray-800 bg-gray-900/40">
        {posts.map((post) => (
          <li key={post.id} className="px-4 py-3">
            <a
              id={`post-link-${post.id}`}
              href={`?view=writing&post=${encodeURIComponent(post.id)}`}
              className="link inline-flex min-h-11 items-center font-semibold break-words [overflow-wrap:anywhere]"
              onClick={(event) => {
                event.preventDefault();
                onOpen(post.id);
              }}
            >
              {post.title}
            </a>
            <p className="flex flex-wrap gap-x-2 text-sm text-gray-400">
              <span>{detail(post)}</span>
              {several && (
                <span>
                  <span aria-hidden="true">· </span>
                  {languageName(post.language)}
                </span>
              )}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The new post's form: its title, and its language when the page has several. */
function NewPost({ languages, onCreated }: { languages: string[]; onCreated: (id: string) => void }) {
  const titleId = useId();
  const languageId = useId();
  const [title, setTitle] = useState('');
  const [language, setLanguage] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: 'title' | 'language' | null; text: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (title.trim() === '') {
      setProblem({ field: 'title', text: 'Enter the title of the new post.' });
      window.document.getElementById(titleId)?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const { document } = await createPost(title.trim(), language || undefined);
      onCreated(document.id);
    } catch (cause) {
      if (sessionEnded(cause)) return;
      if (cause instanceof ApiError && (cause.fields.title || cause.fields.language)) {
        const field = cause.fields.title ? 'title' : 'language';
        setProblem({ field, text: sentence(field, cause.fields[field]!, field === 'title' ? 'The title' : 'The language') });
      } else {
        setProblem({ field: null, text: cause instanceof Error ? cause.message : String(cause) });
      }
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${titleId}-error`;
  return (
    <form aria-labelledby={`${titleId}-heading`} noValidate onSubmit={(event) => void submit(event)} className="mt-4 rounded-xl border border-gray-800 bg-gray-900/40 p-4 md:p-6">
      <h2 id={`${titleId}-heading`} className="mb-4 text-xl font-bold text-white">
        New post
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <div className="min-w-0 flex-[1_1_16rem]">
          <label htmlFor={titleId} className="field-label">
            Title
          </label>
          <input
            id={titleId}
            className="field-input"
            value={title}
            maxLength={160}
            required
            autoComplete="off"
            aria-invalid={problem?.field === 'title' ? true : undefined}
            aria-describedby={problem?.field === 'title' ? errorId : undefined}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        {languages.length > 1 && (
          <div className="min-w-0 flex-[0_1_14rem]">
            <label htmlFor={languageId} className="field-label">
              Language
            </label>
            <select
              id={languageId}
              className="field-input"
              value={language || languages[0]}
              aria-invalid={problem?.field === 'language' ? true : undefined}
              aria-describedby={problem?.field === 'language' ? errorId : undefined}
              onChange={(event) => setLanguage(event.target.value)}
            >
              {languages.map((tag) => (
                <option key={tag} value={tag}>
                  {languageName(tag)}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create the post'}
        </button>
      </div>
      {problem && (
        <p id={errorId} role="alert" className="field-error">
          {problem.text}
        </p>
      )}
    </form>
  );
}

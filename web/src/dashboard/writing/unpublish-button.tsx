/**
 * Unpublishing a live post, asked first: from the server's answer on, every address that showed it
 * (its page, the writing index, the home page's Writing section, the feeds, the sitemap) answers as
 * if it were never published. The draft stays as it is, and Publish brings the post back at the
 * same address.
 */
import { useState } from 'react';
import type { Version } from '../../api/content';
import { unpublishPost } from '../../api/posts';
import { AskedAction, useAction } from '../shared/draft/asked-action';
import { unpublishFailure } from './post-words';
import { momentText } from './standing';

export function UnpublishButton({
  id,
  path,
  live,
  update,
  onUnpublished,
}: {
  /** The post's id. */
  id: string;
  /** The live post's address, named in the question and the answer. */
  path: string;
  /**
   * Whether the post is live: the button is shown only then, but the part stays in the bar so that
   * its message outlives the button once the post is unpublished.
   */
  live: boolean;
  /** When an update of the post is scheduled, which unpublishing drops. */
  update: number | null;
  onUnpublished: (version: Version) => void;
}) {
  const action = useAction(unpublishFailure);

  const unpublish = () =>
    action.act(async () => {
      const version = await unpublishPost(id);
      onUnpublished(version);
      return `Unpublished: ${path} now answers "not found", and the lists and feeds leave the post out. The draft is kept: publish it to bring the post back.`;
    });

  // Said until the post is live again (published here or elsewhere).
  const [wasLive, setWasLive] = useState(live);
  if (wasLive !== live) {
    setWasLive(live);
    if (live) action.setStatus(null);
  }

  return (
    <AskedAction
      action={action}
      label="Unpublish"
      shown={live}
      title="Unpublish the post?"
      confirmLabel="Unpublish the post"
      onConfirm={() => void unpublish()}
    >
      <p>Its address, {path}, will answer as if it were never published, and the lists of posts and the feeds will leave it out.</p>
      {update !== null && <p>The update scheduled for {momentText(update)} is dropped too.</p>}
      <p>The draft is kept: publish it to bring the post back at the same address.</p>
    </AskedAction>
  );
}

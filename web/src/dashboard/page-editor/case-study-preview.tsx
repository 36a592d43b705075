/**
 * The preview beside a case study's form: its own page (`/projects/<slug>/`) as its saved draft
 * would be published, rendered by the server as the published one is
 * (`/api/content/case-studies/<id>/preview`), at a phone's and a desktop's width, in either scheme
 * and each of the page's languages it is translated into; drawn again at each saved revision of
 * its draft or of the page's.
 */
import { PreviewFrame } from '../shared/draft/preview-frame';

export interface CaseStudyPreviewProps {
  /** The project's id: the case study's entry. */
  project: string;
  /** Its address as the draft has it. */
  slug: string;
  /** The case study draft's revision: changes at each save. */
  revision: number;
  /** The page's preview generation (its draft's revision and publishes). */
  pageGeneration: string;
  scheme: 'dark' | 'light';
  /** The page's languages, the default first. */
  languages: readonly string[];
}

export function CaseStudyPreview({ project, revision, pageGeneration, scheme, languages }: CaseStudyPreviewProps) {
  return (
    <PreviewFrame
      generation={`${pageGeneration}:${revision}`}
      anchor="home"
      scheme={scheme}
      languages={languages}
      src={`/api/content/case-studies/${encodeURIComponent(project)}/preview`}
    />
  );
}

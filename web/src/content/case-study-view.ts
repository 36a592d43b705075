/**
 * What a case study's page is drawn from, beside the page's document and locale: the server makes
 * it at publish (server/src/content/case_study_page.rs) in the page's language, with its Markdown
 * texts already parsed into trees (no Markdown parser ships to the browser) and its figures
 * written the language's way (the server's JavaScript engine has no Intl).
 */
import type { Block } from './markdown.generated';
import type { CaseStudy } from './document.generated';

/** A neighbouring case study, in the order of the projects on the page. */
export interface CaseStudyNeighbour {
  title: string;
  path: string;
}

export interface CaseStudyView {
  /** In the page's language, its translations left out. */
  study: CaseStudy;
  /** The Markdown texts as trees: `decisions` in the order of `study.decisions`. */
  texts: {
    problem: Block[];
    role: Block[];
    team: Block[];
    constraints: Block[];
    outcome: Block[];
    decisions: Block[][];
  };
  /** Each figure's value as the page's language writes it, in the order of `study.figures`. */
  figures: string[];
  /** Its own address: `/projects/<slug>/` or `/<language>/projects/<slug>/`. */
  path: string;
  /** The page of its language, where its project's card is: `/` or `/<language>/`. */
  home: string;
  /**
   * The writing index of its language (`/writing/`, `/de/writing/`), for the header's Writing
   * item: given as the home page shows that item (the language has a post, and its Writing
   * section is shown), else absent or null.
   */
  writing?: string | null;
  previous: CaseStudyNeighbour | null;
  next: CaseStudyNeighbour | null;
}

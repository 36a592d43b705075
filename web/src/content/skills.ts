/** The technologies shown in the Skills section, each with its logo (SVG served by our own server), from the content document. */
import { defaultDocument as doc } from './document';
import { image } from './media';

export interface Technology {
  name: string;
  /** URL of the logo image. */
  logo: string;
}

export const skills: readonly Technology[] = doc.skills.map((skill) => ({ name: skill.name, logo: image(skill.logo).src }));

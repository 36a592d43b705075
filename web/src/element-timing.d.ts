// The Element Timing attribute, which React passes through but its types do not list yet:
// `elementtiming` names an image whose paint the browser reports (see main.tsx).
import 'react';

declare module 'react' {
  // The type parameter must match React's declaration to merge with it.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ImgHTMLAttributes<T> {
    elementtiming?: string;
  }
}

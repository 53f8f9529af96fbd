/**
 * The runtime's components for markdown elements, used by rehype-react when a page body is rendered.
 * Interactive parts (copy buttons) work through one delegated listener, so the body can travel as HTML.
 */
import type { ComponentProps, JSX, ReactNode } from 'react';
import './markdown.css';

type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

/** A heading with a `#` link to itself. */
function makeHeading(Tag: HeadingTag) {
  return function Heading({ id, children, ...rest }: ComponentProps<HeadingTag>): JSX.Element {
    return (
      <Tag id={id} {...rest}>
        {children}
        {id && !String(rest.className ?? '').includes('sr-only') ? (
          <a className="hash-link" href={`#${id}`} aria-label="Direct link to this heading">
            #
          </a>
        ) : null}
      </Tag>
    );
  };
}

/** A code block: title bar, highlighted `pre`, copy button. */
function CodeBlockOrDiv(props: ComponentProps<'div'>): JSX.Element {
  const { children, ...rest } = props;
  if (!String(props.className ?? '').split(' ').includes('code-block')) return <div {...props} />;
  return (
    <div {...rest}>
      {children}
      <button type="button" className="copy-button" data-copy="" aria-label="Copy code to clipboard">
        Copy
      </button>
    </div>
  );
}

/**
 * Tables scroll sideways on narrow screens instead of overflowing the page; the frame takes focus so
 * the arrow keys scroll it in every browser (Chromium focuses a scroller by itself, Safari does not),
 * and a screen reader names the region it is in.
 */
function Table(props: ComponentProps<'table'>): JSX.Element {
  return (
    <div className="table-wrapper" tabIndex={0} role="region" aria-label="Table">
      <table {...props} />
    </div>
  );
}

/** External links open in a new tab, without giving it a handle on this one. */
function Anchor(props: ComponentProps<'a'>): JSX.Element {
  if (props.href && /^https?:\/\//.test(props.href)) return <a {...props} target="_blank" rel="noopener noreferrer" />;
  return <a {...props} />;
}

/** Admonition: an aside with a role so screen readers announce it. */
function Aside(props: ComponentProps<'aside'> & { children?: ReactNode }): JSX.Element {
  return <aside role="note" {...props} />;
}

/** Images load lazily (and so React does not hoist a preload link into the body). */
function Image(props: ComponentProps<'img'>): JSX.Element {
  return <img loading="lazy" decoding="async" {...props} />;
}

/** Code whose highlighted tokens arrive as one HTML string (`data-html`). */
function Code(props: ComponentProps<'code'> & { 'data-html'?: string }): JSX.Element {
  const { 'data-html': html, ...rest } = props;
  if (html === undefined) return <code {...rest} />;
  return <code {...rest} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Element name → component, for rehype-react. */
export const markdownComponents = {
  h2: makeHeading('h2'),
  h3: makeHeading('h3'),
  h4: makeHeading('h4'),
  h5: makeHeading('h5'),
  h6: makeHeading('h6'),
  div: CodeBlockOrDiv,
  table: Table,
  a: Anchor,
  aside: Aside,
  code: Code,
  img: Image,
};

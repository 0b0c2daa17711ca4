import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { urlOf, type Screen } from '../model/routes';
import { useNav } from '../store/nav';

/** A real link to an app screen (copy, open in a new tab, bookmark), followed in place on a plain click. */
export function Link({ to, className = '', children, ...props }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: Screen }) {
  const go = useNav((s) => s.go);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(to);
  };
  return (
    <a href={urlOf(to)} className={className} onClick={onClick} {...props}>
      {children}
    </a>
  );
}

import type { TooltipProps } from '@mui/material/Tooltip';
import {
  cloneElement,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

type TooltipComponent = typeof import('@mui/material/Tooltip').default;

let loaded: TooltipComponent | null = null;
let loading: Promise<TooltipComponent> | null = null;

/** Fetches MUI's Tooltip (with Popper and @popperjs) once; later calls share the same promise. */
export function loadTooltip(): Promise<TooltipComponent> {
  loading ??= import('@mui/material/Tooltip').then((m) => {
    loaded = m.default;
    return loaded;
  });
  return loading;
}

/** MUI's default delay (ms) between the pointer reaching the element and the tooltip showing. */
const ENTER_DELAY_MS = 100;

// biome-ignore lint/suspicious/noExplicitAny: the child may be any element that takes these handlers
type ChildProps = Record<string, any>;

interface LazyTooltipProps {
  /** The tooltip's text; an empty string shows nothing (and names nothing). */
  title: ReactNode;
  placement?: TooltipProps['placement'];
  /** One element that accepts a ref and the mouse and focus handlers (a button, a link). */
  children: ReactElement<ChildProps>;
}

/** Calls the child's own handler, then ours. */
function chain<E>(own: ((event: E) => void) | undefined, ours: (event: E) => void) {
  return (event: E) => {
    own?.(event);
    ours(event);
  };
}

/** Whether a focus came from the keyboard (MUI's tooltip shows on keyboard focus only). */
function keyboardFocus(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return false;
  }
}

/**
 * A tooltip that costs nothing until it is first wanted: the child renders as is (named by a string
 * title through `aria-label` when it has no name of its own, as MUI's tooltip does), and the first
 * hover or keyboard focus fetches MUI's Tooltip, which then shows beside the child (anchored to it, so
 * the child is never re-mounted under the pointer). Same look, placement and delay as MUI's.
 */
export function LazyTooltip({ title, placement = 'bottom', children }: LazyTooltipProps) {
  const anchor = useRef<HTMLElement | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [open, setOpen] = useState(false);
  const [Tooltip, setTooltip] = useState<TooltipComponent | null>(() => loaded);
  const childRef = (children.props.ref ?? null) as Ref<HTMLElement> | null;

  const setAnchor = useCallback(
    (node: HTMLElement | null) => {
      anchor.current = node;
      if (typeof childRef === 'function') childRef(node);
      else if (childRef) (childRef as { current: HTMLElement | null }).current = node;
    },
    [childRef],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  const show = () => {
    if (!title) return;
    clearTimeout(timer.current);
    void loadTooltip().then((component) => setTooltip(() => component));
    timer.current = setTimeout(() => setOpen(true), ENTER_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setOpen(false);
  };

  const own = children.props;
  const child = cloneElement(children, {
    ref: setAnchor,
    'aria-label': own['aria-label'] ?? (typeof title === 'string' && title ? title : undefined),
    onMouseEnter: chain<MouseEvent<HTMLElement>>(own.onMouseEnter, show),
    onMouseLeave: chain<MouseEvent<HTMLElement>>(own.onMouseLeave, hide),
    onFocus: chain<FocusEvent<HTMLElement>>(own.onFocus, (event) => {
      if (keyboardFocus(event.currentTarget)) show();
    }),
    onBlur: chain<FocusEvent<HTMLElement>>(own.onBlur, hide),
  });

  return (
    <>
      {child}
      {Tooltip && (
        <Tooltip
          title={title}
          placement={placement}
          open={open && Boolean(title)}
          disableHoverListener
          disableFocusListener
          disableTouchListener
          slotProps={{ popper: { anchorEl: anchor.current } }}
        >
          <span hidden />
        </Tooltip>
      )}
    </>
  );
}

"use client";

import { useEffect, useRef, useState } from "react";
import { dayDate, dayTooltipLines, decodeDayIncidents, decodeUptime } from "./uptime-day-code.js";

interface Tip {
  lines: string[];
  left: number;
  top: number;
  /** Near a bar's ends the tooltip hangs inwards, so it never leaves the card or the screen. */
  align: "start" | "center" | "end";
}

/** Day under the pointer (or the keyboard's day) of one `.sp-bars-box`, as tooltip lines. */
function describeDay(box: HTMLElement, day: number, titles: readonly string[]): string[] {
  const codes = (box.dataset.u ?? "").split(",");
  return dayTooltipLines({
    date: dayDate(box.dataset.first ?? "", day),
    uptime: decodeUptime(codes[day]),
    incidentTitles: decodeDayIncidents(box.dataset.inc ?? "", day).flatMap((i) =>
      titles[i] === undefined ? [] : [titles[i]],
    ),
  });
}

function dayCount(box: HTMLElement): number {
  return (box.dataset.u ?? "").split(",").length;
}

function place(box: HTMLElement, day: number, lines: string[]): Tip {
  const r = box.getBoundingClientRect();
  const share = (day + 0.5) / dayCount(box);
  const x = r.left + share * r.width;
  const align = share < 0.15 ? "start" : share > 0.85 ? "end" : "center";
  return { lines, left: x + window.scrollX, top: r.top + window.scrollY, align };
}

/**
 * The one tooltip of the public status page: shows the day under the pointer of any uptime bar
 * (uptime, incidents), and for keyboard users the day chosen with the arrow keys in a focused bar.
 * Reads the compact day data the server put on each bar (uptime-day-code.ts).
 */
export function UptimeTooltip(props: { incidentTitles: string[] }) {
  const [tip, setTip] = useState<Tip | null>(null);
  const titles = useRef(props.incidentTitles);
  titles.current = props.incidentTitles;

  useEffect(() => {
    const keyDay = new WeakMap<HTMLElement, number>();
    const boxOf = (t: EventTarget | null) =>
      t instanceof Element ? (t.closest(".sp-bars-box") as HTMLElement | null) : null;
    const show = (box: HTMLElement, day: number) => {
      box.dataset.day = String(day);
      setTip(place(box, day, describeDay(box, day, titles.current)));
    };
    const onMove = (e: PointerEvent) => {
      const box = boxOf(e.target);
      if (!box) return;
      const r = box.getBoundingClientRect();
      const n = dayCount(box);
      show(box, Math.min(n - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * n))));
    };
    const onLeave = (e: PointerEvent) => {
      const box = boxOf(e.target);
      if (box && !box.contains(e.relatedTarget as Node | null) && document.activeElement !== box) setTip(null);
    };
    const onFocus = (e: FocusEvent) => {
      const box = boxOf(e.target);
      if (box === e.target && box) show(box, keyDay.get(box) ?? dayCount(box) - 1);
    };
    const onBlur = (e: FocusEvent) => {
      if (boxOf(e.target) === e.target) setTip(null);
    };
    const onKey = (e: KeyboardEvent) => {
      const box = boxOf(e.target);
      if (!box || box !== e.target) return;
      const n = dayCount(box);
      const current = keyDay.get(box) ?? n - 1;
      const next =
        e.key === "ArrowLeft"
          ? current - 1
          : e.key === "ArrowRight"
            ? current + 1
            : e.key === "Home"
              ? 0
              : e.key === "End"
                ? n - 1
                : null;
      if (e.key === "Escape") return setTip(null);
      if (next === null) return;
      e.preventDefault();
      const day = Math.min(n - 1, Math.max(0, next));
      keyDay.set(box, day);
      show(box, day);
    };
    document.addEventListener("pointermove", onMove, { passive: true });
    document.addEventListener("pointerout", onLeave);
    document.addEventListener("focusin", onFocus);
    document.addEventListener("focusout", onBlur);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointermove", onMove);
      document.removeEventListener("pointerout", onLeave);
      document.removeEventListener("focusin", onFocus);
      document.removeEventListener("focusout", onBlur);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  return (
    <div
      id="sp-day-tip"
      role="tooltip"
      aria-live="polite"
      className="sp-day-tip"
      data-align={tip?.align ?? "center"}
      hidden={tip === null}
      ref={(el) => {
        // CSSOM writes (not a style attribute): allowed by the page's nonce-based CSP.
        if (el && tip) {
          el.style.left = `${tip.left}px`;
          el.style.top = `${tip.top}px`;
        }
      }}
    >
      {tip?.lines.map((line, i) => (
        <div key={i} className={i === 0 ? "sp-day-tip-head" : "sp-day-tip-inc"}>
          {line}
        </div>
      ))}
    </div>
  );
}

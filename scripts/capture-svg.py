#!/usr/bin/env python3
"""Turns `tmux capture-pane -p -e` output (standard input) into an SVG of the
screen (standard output): each character in its colour, bold and italic as
tmux kept them, on a dark background. Used for the README's captures.

    tmux capture-pane -p -e -t NAME | scripts/capture-svg.py > docs/images/x.svg
"""
import re
import sys
from html import escape

CELL_W, CELL_H = 8.4, 17
BASIC = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
         "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]


def palette(n):
    if n < 16:
        return BASIC[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def main():
    lines = sys.stdin.read().rstrip("\n").split("\n")
    columns = max(len(re.sub(r"\x1b\[[0-9;]*m", "", l)) for l in lines)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="DejaVu Sans Mono, monospace" font-size="14">'
           % (columns * CELL_W + 16, len(lines) * CELL_H + 16),
           '<rect width="100%" height="100%" rx="6" fill="#0d0d0d"/>']
    for y, line in enumerate(lines):
        fg, bg, bold, italic, x = None, None, False, False, 0
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            if part.startswith("\x1b["):
                params = [int(p) if p else 0 for p in part[2:-1].split(";")]
                i = 0
                while i < len(params):
                    p = params[i]
                    if p == 0: fg, bg, bold, italic = None, None, False, False
                    elif p == 1: bold = True
                    elif p == 3: italic = True
                    elif p == 22: bold = False
                    elif p == 23: italic = False
                    elif p == 39: fg = None
                    elif p == 49: bg = None
                    elif 30 <= p <= 37: fg = BASIC[p - 30]
                    elif 90 <= p <= 97: fg = BASIC[p - 90 + 8]
                    elif 40 <= p <= 47: bg = BASIC[p - 40]
                    elif p in (38, 48):
                        if params[i + 1] == 5: colour, i = palette(params[i + 2]), i + 2
                        else: colour, i = "#%02x%02x%02x" % tuple(params[i + 2:i + 5]), i + 4
                        if p == 38: fg = colour
                        else: bg = colour
                    i += 1
                continue
            for ch in part:
                px, py = 8 + x * CELL_W, 8 + y * CELL_H
                if bg:
                    out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>' % (px, py, CELL_W + 0.3, CELL_H, bg))
                if ch != " ":
                    style = (' font-weight="bold"' if bold else "") + (' font-style="italic"' if italic else "")
                    out.append('<text x="%.1f" y="%d" fill="%s"%s>%s</text>' % (px, py + 13, fg or "#dcdcdc", style, escape(ch)))
                x += 1
    out.append("</svg>")
    print("\n".join(out))


main()

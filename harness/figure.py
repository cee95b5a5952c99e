"""A log-log figure as SVG text: the models' lines and the measured points,
one colour per series (what the experiments' figures need, no plotting
library)."""

import math
from html import escape

COLOURS = ["#000000", "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 900, 560, 80, 220, 40, 60


def loglog_svg(title, xlabel, ylabel, lines, points):
    """`lines`: {name: [(x, y)]}; `points`: [(x, y, name)]. Positive values
    only (others are left out)."""
    names = list(lines) + [n for _, _, n in points if n not in lines]
    names = list(dict.fromkeys(names))
    colour = {n: COLOURS[k % len(COLOURS)] for k, n in enumerate(names)}
    xs = [x for ps in lines.values() for x, y in ps if x > 0 and y > 0] + \
         [x for x, y, _ in points if x > 0 and y > 0]
    ys = [y for ps in lines.values() for x, y in ps if x > 0 and y > 0] + \
         [y for x, y, _ in points if x > 0 and y > 0]
    out = [f'<svg width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
           'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="13">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{WIDTH / 2}" y="22" text-anchor="middle">{escape(title)}</text>']
    if not xs or not ys:
        return "\n".join(out + ['<text x="450" y="280" text-anchor="middle">no data</text>',
                                "</svg>"]) + "\n"
    sx, sy = scale(xs, LEFT, WIDTH - RIGHT), scale(ys, HEIGHT - BOTTOM, TOP)
    out += axes(sx, sy, xlabel, ylabel)
    for name, ps in lines.items():
        path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in ps if x > 0 and y > 0)
        out.append(f'<polyline fill="none" stroke="{colour[name]}" stroke-width="1.5" '
                   f'points="{path}"/>')
    for x, y, name in points:
        if x > 0 and y > 0:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="4" fill="none" '
                       f'stroke="{colour[name]}" stroke-width="2"/>')
    for k, name in enumerate(names):
        y = TOP + 20 + 20 * k
        out.append(f'<line x1="{WIDTH - RIGHT + 15}" y1="{y - 4}" x2="{WIDTH - RIGHT + 35}" '
                   f'y2="{y - 4}" stroke="{colour[name]}" stroke-width="2"/>')
        out.append(f'<text x="{WIDTH - RIGHT + 40}" y="{y}">{escape(name)}</text>')
    out.append(f'<text x="{WIDTH - RIGHT + 15}" y="{TOP + 30 + 20 * len(names)}">'
               "lines: model; circles: measured</text>")
    return "\n".join(out + ["</svg>"]) + "\n"


def scale(values, low, high):
    """A log scale from the decades around `values` onto [low, high] pixels."""
    a = math.floor(math.log10(min(values)))
    b = max(math.ceil(math.log10(max(values))), a + 1)
    return Scale(a, b, low, high)


class Scale:
    def __init__(self, a, b, low, high):
        self.a, self.b, self.low, self.high = a, b, low, high

    def __call__(self, v):
        return self.low + (math.log10(v) - self.a) / (self.b - self.a) * (self.high - self.low)


def axes(sx, sy, xlabel, ylabel):
    out = []
    for d in range(sx.a, sx.b + 1):
        x = sx(10.0 ** d)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" '
                   'stroke="#000000" stroke-opacity="0.1"/>')
        out.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">'
                   f"{10.0 ** d:g}</text>")
    for d in range(sy.a, sy.b + 1):
        y = sy(10.0 ** d)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                   'stroke="#000000" stroke-opacity="0.1"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{10.0 ** d:g}</text>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 15}" '
               f'text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(20 {(TOP + HEIGHT - BOTTOM) / 2}) rotate(-90)" '
               f'text-anchor="middle">{escape(ylabel)}</text>')
    return out

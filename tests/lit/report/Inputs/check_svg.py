"""check_svg.py FILE [MAX_POINTS [MAX_BYTES]]

Checks that FILE is a well-formed, standalone SVG pressure plot and prints a
summary for FileCheck: the size, each series with its number of points, the
maximum labels and the number of shaded loop areas. Fails (exit 1) when the
XML does not parse, the root is not <svg>, the file refers to anything outside
itself (scripts, links, images, foreign objects), a series has more than
MAX_POINTS points (default 2000), a point lies outside the picture, or the
file is larger than MAX_BYTES (then "size ok" ends the summary).
"""

import os
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def fail(msg):
    sys.stdout.write("check_svg: error: %s\n" % msg)
    sys.exit(1)


def main(argv):
    if len(argv) not in (2, 3, 4):
        sys.stderr.write(__doc__)
        return 2
    max_points = int(argv[2]) if len(argv) == 3 else 2000
    root = ET.parse(argv[1]).getroot()
    if root.tag != SVG + "svg":
        fail("root element is %s, not svg" % root.tag)
    width, height = float(root.get("width")), float(root.get("height"))
    print("svg %gx%g" % (width, height))
    for el in root.iter():
        name = el.tag.replace(SVG, "")
        if name in ("script", "foreignObject", "image", "a", "use", "style"):
            fail("element <%s> refers outside the file or runs code" % name)
        for attr in el.attrib:
            if "href" in attr or attr.startswith("on"):
                fail("attribute %s on <%s>" % (attr, name))
    for poly in root.iter(SVG + "polyline"):
        pts = poly.get("points").split()
        if len(pts) > max_points:
            fail("series %s has %d points (more than %d)" % (poly.get("id"), len(pts), max_points))
        for p in pts:
            x, y = (float(c) for c in p.split(","))
            if not (0 <= x <= width and 0 <= y <= height):
                fail("point %s of series %s outside the picture" % (p, poly.get("id")))
        print("series %s: %d points" % (poly.get("id"), len(pts)))
    for g in root.iter(SVG + "g"):
        if g.get("id") == "maxima":
            for t in g.iter(SVG + "text"):
                print("label: %s" % t.text)
        if g.get("id") == "loops":
            print("loop areas: %d" % len(list(g.iter(SVG + "rect"))))
    if len(argv) == 4:
        size = os.path.getsize(argv[1])
        if size > int(argv[3]):
            fail("%d bytes (more than %s)" % (size, argv[3]))
        print("size ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

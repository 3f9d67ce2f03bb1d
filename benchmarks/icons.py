"""Draw the installable app's icons (issue 26): ``src/blot/web/icons/icon.svg`` and
``maskable.svg`` (its full-bleed form, the card inside the safe circle) rendered to the PNG sizes
the web app manifest names, by Debian's chromium (the browser tests' Playwright). Run it after
changing an SVG; the PNGs are committed.

    python benchmarks/icons.py
"""

from __future__ import annotations

from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "src" / "blot" / "web" / "icons"
#: (source, size, file): what the manifest and the page's <link rel=icon> name.
RENDERS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("maskable.svg", 512, "maskable-512.png"),
    ("icon.svg", 180, "apple-touch-icon.png"),
    ("icon.svg", 32, "icon-32.png"),
]


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        for source, size, name in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text(encoding="utf-8")
            page.set_content(
                "<html><body style='margin:0;background:transparent'>"
                + svg.replace("<svg ", f"<svg width='{size}' height='{size}' ", 1)
                + "</body></html>"
            )
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(f"{name}: {size}x{size}, {(ICONS / name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()

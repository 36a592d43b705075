#!/usr/bin/env python3
"""Checks a feed the server wrote and prints what a reader of it finds, for the server's tests
(server/tests/api/helpers/feeds.rs). Runs in the project's venv (scripts/python-venv.sh), which
has feedparser:

    target/fuzz-venv/bin/python server/tests/feeds/check_feed.py rss FILE
    target/fuzz-venv/bin/python server/tests/feeds/check_feed.py json FILE

rss: the file as feedparser reads it. It fails when feedparser finds the XML ill-formed (its
bozo flag) or the file is not RSS, when the channel has no title or link, or when an item lacks a
title, a link, a date (pubDate, or an updated date) or content (content:encoded, or failing that
a description).

json: the file against JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): its version, a
title and items; each item's string id (unique in the feed) and content_html or content_text;
the other fields' types when present, dates in RFC 3339, and authors as objects with a name, url
or avatar.

On success it prints one JSON object on standard output, the same shape for both:
    {"title": ..., "items": [{"title": ..., "link": ..., "published": ..., "content": ...}]}
(for rss, published is the item's date in UTC, ISO 8601 with a Z; for json, date_published as
written; a field the item lacks is null). On a failure it prints what failed, naming the item, on
standard error and exits 1; on a wrong invocation it exits 2.
"""

import datetime
import json
import re
import sys
import time

import feedparser

JSON_FEED_VERSION = "https://jsonfeed.org/version/1.1"

# RFC 3339's date-time (section 5.6); the values' ranges are datetime's to check.
RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z"
)


class Invalid(Exception):
    """What makes the feed fail its check."""


def describe(index, title, link):
    """An item as a failure names it: its place (from 1), and its title and link when it has
    them."""
    name = f"item {index + 1}"
    known = [repr(value) for value in (title, link) if value]
    return f"{name} ({', '.join(known)})" if known else name


def check_rss(path):
    # The bytes, not the path: feedparser takes a path it cannot open for the feed's text.
    with open(path, "rb") as file:
        feed = feedparser.parse(file.read())
    if feed.bozo:
        # The XML parser's error names the line and column (<unknown>:LINE:COLUMN).
        raise Invalid(f"feedparser finds the feed ill-formed: {feed.bozo_exception}")
    if not feed.version.startswith("rss"):
        raise Invalid(f"not an RSS feed: feedparser reads it as {feed.version or 'unknown'!r}")
    title = feed.feed.get("title")
    link = feed.feed.get("link")
    if not title:
        raise Invalid("the channel has no title")
    if not link:
        raise Invalid("the channel has no link")
    items = []
    for index, entry in enumerate(feed.entries):
        item_title = entry.get("title")
        item_link = entry.get("link")
        name = describe(index, item_title, item_link)
        if not item_title:
            raise Invalid(f"{name} has no title")
        if not item_link:
            raise Invalid(f"{name} has no link")
        date = entry.get("published_parsed") or entry.get("updated_parsed")
        if not date:
            raise Invalid(f"{name} has no date (pubDate or updated) that feedparser reads")
        content = entry.get("content")
        content = content[0].get("value") if content else None
        if not content:
            content = entry.get("description")
        if not content:
            raise Invalid(f"{name} has no content (content:encoded or description)")
        items.append(
            {
                "title": item_title,
                "link": item_link,
                # feedparser's parsed dates are in UTC.
                "published": time.strftime("%Y-%m-%dT%H:%M:%SZ", date),
                "content": content,
            }
        )
    return {"title": title, "items": items}


def check_string(where, value, field):
    """The field, when present, is a string."""
    if field in value and not isinstance(value[field], str):
        raise Invalid(f"{where}: {field} is not a string: {value[field]!r}")


def check_date(where, value, field):
    """The field, when present, is an RFC 3339 date-time."""
    check_string(where, value, field)
    if field not in value:
        return
    date = value[field]
    if not RFC3339.match(date):
        raise Invalid(f"{where}: {field} is not an RFC 3339 date-time: {date!r}")
    try:
        datetime.datetime.fromisoformat(date.upper().replace("Z", "+00:00"))
    except ValueError as error:
        raise Invalid(f"{where}: {field} is not a date: {date!r} ({error})") from None


def check_authors(where, value):
    """authors, when present: an array of objects, each with a name, url or avatar (strings)."""
    if "authors" not in value:
        return
    authors = value["authors"]
    if not isinstance(authors, list):
        raise Invalid(f"{where}: authors is not an array")
    for number, author in enumerate(authors, start=1):
        if not isinstance(author, dict):
            raise Invalid(f"{where}: author {number} is not an object")
        for field in ("name", "url", "avatar"):
            check_string(f"{where}: author {number}", author, field)
        if not any(field in author for field in ("name", "url", "avatar")):
            raise Invalid(f"{where}: author {number} has no name, url or avatar")


def check_json_feed(path):
    with open(path, encoding="utf-8") as file:
        try:
            feed = json.load(file)
        except json.JSONDecodeError as error:
            raise Invalid(f"not JSON: {error}") from None
    if not isinstance(feed, dict):
        raise Invalid("the feed is not a JSON object")
    if feed.get("version") != JSON_FEED_VERSION:
        raise Invalid(f"version is {feed.get('version')!r}, not {JSON_FEED_VERSION!r}")
    if not isinstance(feed.get("title"), str):
        raise Invalid("the feed has no title (a string)")
    for field in (
        "home_page_url",
        "feed_url",
        "description",
        "user_comment",
        "next_url",
        "icon",
        "favicon",
        "language",
    ):
        check_string("the feed", feed, field)
    if "expired" in feed and not isinstance(feed["expired"], bool):
        raise Invalid("the feed: expired is not a boolean")
    check_authors("the feed", feed)
    if not isinstance(feed.get("items"), list):
        raise Invalid("the feed has no items (an array)")
    items = []
    ids = set()
    for index, item in enumerate(feed["items"]):
        if not isinstance(item, dict):
            raise Invalid(f"{describe(index, None, None)} is not an object")
        title, url = item.get("title"), item.get("url")
        name = describe(
            index,
            title if isinstance(title, str) else None,
            url if isinstance(url, str) else None,
        )
        if not isinstance(item.get("id"), str):
            raise Invalid(f"{name} has no id (a string)")
        if item["id"] in ids:
            raise Invalid(f"{name} has the id of an earlier item: {item['id']!r}")
        ids.add(item["id"])
        for field in (
            "url",
            "external_url",
            "title",
            "content_html",
            "content_text",
            "summary",
            "image",
            "banner_image",
            "language",
        ):
            check_string(name, item, field)
        if "content_html" not in item and "content_text" not in item:
            raise Invalid(f"{name} has neither content_html nor content_text")
        check_date(name, item, "date_published")
        check_date(name, item, "date_modified")
        if "tags" in item and not (
            isinstance(item["tags"], list) and all(isinstance(tag, str) for tag in item["tags"])
        ):
            raise Invalid(f"{name}: tags is not an array of strings")
        check_authors(name, item)
        items.append(
            {
                "title": item.get("title"),
                "link": item.get("url"),
                "published": item.get("date_published"),
                "content": item.get("content_html"),
            }
        )
    return {"title": feed["title"], "items": items}


def main(argv):
    checks = {"rss": check_rss, "json": check_json_feed}
    if len(argv) != 3 or argv[1] not in checks:
        print(f"usage: {argv[0]} rss|json FILE", file=sys.stderr)
        return 2
    kind, path = argv[1], argv[2]
    try:
        summary = checks[kind](path)
    except (Invalid, OSError, UnicodeDecodeError) as failure:
        print(f"check_feed.py: {kind} feed {path}: {failure}", file=sys.stderr)
        return 1
    json.dump(summary, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

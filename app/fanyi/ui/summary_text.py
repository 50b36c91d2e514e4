"""A summary as the app shows it, in the UI's language: the summary, the English one it was translated from
(both can be copied), and how it was made; and what a running summary is doing."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from fanyi import summaries

RULE = "\n\n————————\n\n"
translate = QCoreApplication.translate


def note(summary: summaries.Summary) -> str:
    if summary.given_back:
        return translate("summaries", "The text is shorter than a summary would be: here it is as it was.")
    said = []
    if summary.pretranslated_with:
        said.append(
            translate("summaries", "The text was translated into English by %1 first: %2 summarizes English only.")
            .replace("%1", summary.pretranslated_with)
            .replace("%2", summary.model)
        )
    if summary.translated_with:
        said.append(
            translate("summaries", "Summarized in English by %1, translated by %2.")
            .replace("%1", summary.model)
            .replace("%2", summary.translated_with)
        )
    return " ".join(said) or translate("summaries", "Summarized by %1.").replace("%1", summary.model)


def shown(summary: summaries.Summary) -> str:
    """The summary, then BART's English one where the summary is its translation."""
    text = summary.text.strip()
    if summary.english:
        heading = translate("summaries", "English summary (%1):").replace("%1", summary.model)
        text += f"{RULE}{heading}\n\n{summary.english.strip()}"
    return text


def stage(name: str, done: int, total: int) -> str:
    """A summary's progress in a few words: "Summarizing part 3 of 12…"."""
    if name == summaries.TRANSLATING:
        percent = str(100 * done // max(total, 1))
        return translate("summaries", "Translating the text into English… %1%").replace("%1", percent)
    if name == summaries.TRANSLATING_SUMMARY:
        return translate("summaries", "Translating the summary…")
    if total > 1:
        if name == summaries.SUMMARIZING:
            what = translate("summaries", "Summarizing part %1 of %2…")
        else:
            what = translate("summaries", "Combining the summaries: %1 of %2…")
        return what.replace("%1", str(min(done + 1, total))).replace("%2", str(total))
    if name == summaries.SUMMARIZING:
        return translate("summaries", "Summarizing…")
    return translate("summaries", "Combining the summaries…")

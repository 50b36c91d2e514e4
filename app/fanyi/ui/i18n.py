"""UI language: Qt translators for our strings (assets/i18n/*.qm) and for Qt's own dialogs.

Source strings are English; ``fanyi_zh_CN.ts`` holds the Simplified Chinese translation and is
compiled to ``.qm`` with ``pyside6-lrelease`` (see assets/i18n/README.md). Installing a translator
makes Qt send LanguageChange to every widget; a widget that sets its texts in ``retranslate()``
inherits ``Retranslating`` to have it called again then.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from fanyi import paths
from fanyi.languages import CANTONESE, HONG_KONG, MULTIPLE, SIMPLIFIED, TAIWAN, TRADITIONAL
from fanyi.ui.language_names import base_name

# Names are shown in their own language so a user can always find theirs.
LANGUAGE_NAMES = {"zh_CN": "简体中文", "en": "English"}

# Strings of Qt's own file dialog that Qt's Chinese translation (qtbase_zh_CN.qm) leaves in English:
# listed here so that lupdate puts them, in Qt's context, into our .ts, whose translator Qt asks too.
QT_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)

_VARIANT_NAMES = {
    SIMPLIFIED: QT_TRANSLATE_NOOP("variants", "Simplified Chinese"),
    TAIWAN: QT_TRANSLATE_NOOP("variants", "Traditional Chinese with Taiwan's words (软件 → 軟體), by OpenCC"),
    HONG_KONG: QT_TRANSLATE_NOOP("variants", "Traditional Chinese with Hong Kong's words (视频 → 視頻), by OpenCC"),
    TRADITIONAL: QT_TRANSLATE_NOOP("variants", "Traditional Chinese as the model writes it"),
    CANTONESE: QT_TRANSLATE_NOOP("variants", "Cantonese"),
}

_installed: list[QTranslator] = []
_current = "en"


class Retranslating:
    """A widget mixin (listed before the Qt class): ``retranslate()``, which sets the widget's texts, runs
    again whenever the UI language changes. The widget calls it once itself, when its texts are first set."""

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]  # the Qt widget class that follows in the MRO


def i18n_dir() -> Path:
    return paths.assets_dir() / "i18n"


def qt_translations_dir() -> str:
    """Where Qt's own translations are: PySide6's folder, or the bundle's copy in the installed app."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def resolve(language: str) -> str:
    """'auto' follows the system locale: Chinese locales get Chinese, everything else English."""
    if language in LANGUAGE_NAMES:
        return language
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def install(language: str) -> str:
    """Switch the running application to ``language`` ('auto', 'zh_CN' or 'en'); returns the one used."""
    app = QCoreApplication.instance()
    assert app is not None
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    global _current
    resolved = _current = resolve(language)
    if resolved != "en":
        candidates = [
            (str(i18n_dir()), f"fanyi_{resolved}"),
            (qt_translations_dir(), f"qtbase_{resolved}"),
        ]
        for folder, name in candidates:
            translator = QTranslator()
            if translator.load(name, folder):
                app.installTranslator(translator)
                _installed.append(translator)
    return resolved


def current() -> str:
    """The UI language in use: 'zh_CN' or 'en'."""
    return _current


def language_name(code: str) -> str:
    """A pack's language code as a word in the UI language (unknown codes are shown as they are)."""
    return base_name(code)


def direction(source: str, target: str) -> str:
    if MULTIPLE in (source, target):  # a many-to-many pack: its languages are chosen in the window
        return QCoreApplication.translate("languages", "Many languages")
    return f"{language_name(source)} → {language_name(target)}"


def variant_names() -> dict[str, str]:
    """What each way of writing Chinese (fanyi.languages.VARIANTS) is, in the UI language, for tooltips."""
    return {key: QCoreApplication.translate("variants", str(name)) for key, name in _VARIANT_NAMES.items()}


def quantization_name(mode: str) -> str:
    """A pack's quantization as the UI shows it: "int8", or full precision for an unquantized pack ("none")."""
    return QCoreApplication.translate("models", "full precision") if mode == "none" else mode

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>ApiController</name>
    <message>
        <source>Other apps can no longer use Fanyi.</source>
        <translation>其他应用已无法再使用 Fanyi。</translation>
    </message>
    <message>
        <source>Other apps on this computer can use Fanyi at %1</source>
        <translation>本机上的其他应用可通过 %1 使用 Fanyi</translation>
    </message>
    <message>
        <source>Other apps cannot use Fanyi: %1</source>
        <translation>其他应用无法使用 Fanyi：%1</translation>
    </message>
</context>
<context>
    <name>AutostartController</name>
    <message>
        <source>Starting at login could not be changed: %1</source>
        <translation>无法更改登录时启动：%1</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <source>The glossary could not be saved: {0}</source>
        <translation>无法保存术语表：{0}</translation>
    </message>
</context>
<context>
    <name>DictionaryCard</name>
    <message>
        <source>Click to copy</source>
        <translation>点击复制</translation>
    </message>
    <message>
        <source>Oxford 3000</source>
        <translation>牛津 3000 词</translation>
    </message>
    <message>
        <source>Collins stars: how common the word is (5 is the most common)</source>
        <translation>柯林斯星级：词的常用程度（5 星最常用）</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1：%3 的%2</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>……另有 %1 条</translation>
    </message>
    <message>
        <source>Parts of speech: %1</source>
        <translation>词性：%1</translation>
    </message>
    <message>
        <source>Forms: %1</source>
        <translation>词形：%1</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 的%1</translation>
    </message>
    <message>
        <source>a form</source>
        <translation>变形</translation>
    </message>
    <message>
        <source>contemporary</source>
        <translation>当代语料库</translation>
    </message>
    <message>
        <source>Frequency rank %1</source>
        <translation>词频排名 %1</translation>
    </message>
    <message>
        <source>English definition</source>
        <translation>英文释义</translation>
    </message>
</context>
<context>
    <name>DictionaryController</name>
    <message>
        <source>The dictionary cannot be read: %1</source>
        <translation>无法读取词典：%1</translation>
    </message>
</context>
<context>
    <name>FanyiApp</name>
    <message>
        <source>Fanyi is still running</source>
        <translation>Fanyi 仍在运行</translation>
    </message>
    <message>
        <source>It is in the tray, where the clipboard hotkey still works. Quit it from the tray icon&apos;s menu, or untick “Closing the window keeps Fanyi in the tray” in Settings.</source>
        <translation>它在系统托盘中，剪贴板快捷键照常可用。要退出，请使用托盘图标的菜单；或在设置中取消勾选“关闭窗口后 Fanyi 仍在托盘中运行”。</translation>
    </message>
</context>
<context>
    <name>GlossaryController</name>
    <message>
        <source>The glossary could not be read and was put aside: {0}</source>
        <translation>术语表无法读取，已另存备份：{0}</translation>
    </message>
</context>
<context>
    <name>GlossaryMessages</name>
    <message>
        <source>a glossary holds at most {limit} terms</source>
        <translation>术语表最多只能有 {limit} 个术语</translation>
    </message>
    <message>
        <source>{file} has {count} terms; a glossary holds at most {limit}</source>
        <translation>{file} 有 {count} 个术语；术语表最多只能有 {limit} 个</translation>
    </message>
    <message>
        <source>{file} is {size} bytes, more than a glossary may be ({limit})</source>
        <translation>{file} 有 {size} 字节，超过了术语表的上限（{limit}）</translation>
    </message>
    <message>
        <source>{file} is not UTF-8 text (save it as CSV UTF-8)</source>
        <translation>{file} 不是 UTF-8 文本（请另存为“CSV UTF-8”）</translation>
    </message>
    <message>
        <source>{file} cannot be read: {reason}</source>
        <translation>无法读取 {file}：{reason}</translation>
    </message>
    <message>
        <source>a glossary row has four columns (source, target, term, translation) or two (term, translation), not {count}</source>
        <translation>术语表的一行应有四列（源语言、目标语言、术语、译法）或两列（术语、译法），而不是 {count} 列</translation>
    </message>
    <message>
        <source>the term is empty</source>
        <translation>术语为空</translation>
    </message>
    <message>
        <source>the translation is empty</source>
        <translation>译法为空</translation>
    </message>
    <message>
        <source>the term must be printable text of at most {limit} characters</source>
        <translation>术语必须是可打印的文字，最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>the translation must be printable text of at most {limit} characters</source>
        <translation>译法必须是可打印的文字，最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>the source language {code!r} is not a language code</source>
        <translation>源语言 {code!r} 不是语言代码</translation>
    </message>
    <message>
        <source>the target language {code!r} is not a language code</source>
        <translation>目标语言 {code!r} 不是语言代码</translation>
    </message>
    <message>
        <source>{file}, row {row}: {message}</source>
        <translation>{file}，第 {row} 行：{message}</translation>
    </message>
    <message>
        <source>Row {row}: {message}</source>
        <translation>第 {row} 行：{message}</translation>
    </message>
</context>
<context>
    <name>GlossaryTab</name>
    <message>
        <source>From</source>
        <translation>源语言</translation>
    </message>
    <message>
        <source>To</source>
        <translation>目标语言</translation>
    </message>
    <message>
        <source>Term</source>
        <translation>术语</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>译法</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>How a term is to be translated, per language pair (codes such as en, zh, zh-Hant, ja; * for any language). An LLM pack is told the terms a paragraph holds; other packs keep them through placeholders, which a model may drop.</source>
        <translation>按语言对规定术语的译法（语言代码如 en、zh、zh-Hant、ja；* 表示任何语言）。大模型会被告知段落中出现的术语；其他模型通过占位符保留术语，但模型可能会丢掉占位符。</translation>
    </message>
    <message>
        <source>{0} cannot be written: {1}</source>
        <translation>无法写入 {0}：{1}</translation>
    </message>
    <message>
        <source>Import a glossary</source>
        <translation>导入术语表</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export the glossary</source>
        <translation>导出术语表</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
</context>
<context>
    <name>HistoryController</name>
    <message>
        <source>The history file was damaged. It was kept as %1 and a new history was started.</source>
        <translation>历史记录文件已损坏。已将其保留为 %1，并开始新的历史记录。</translation>
    </message>
    <message>
        <source>History cannot be saved: %1</source>
        <translation>无法保存历史记录：%1</translation>
    </message>
</context>
<context>
    <name>HistoryDialog</name>
    <message>
        <source>Clear history</source>
        <translation>清除历史</translation>
    </message>
    <message>
        <source>Remove from favourites</source>
        <translation>取消收藏</translation>
    </message>
    <message>
        <source>Add to favourites</source>
        <translation>收藏</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>导出历史记录</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1 entries to %2.</source>
        <translation>已将 %1 条记录保存到 %2。</translation>
    </message>
    <message>
        <source>Delete every saved translation? Favourites (%1) are kept.</source>
        <translation>删除所有保存的翻译吗？收藏（%1）会保留。</translation>
    </message>
    <message>
        <source>History cannot be used: %1</source>
        <translation>无法使用历史记录：%1</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Favourites only</source>
        <translation>只看收藏</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Delete the selected entries (Del)</source>
        <translation>删除选中的记录（Del）</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the entries listed here as a CSV file (opens in Excel)</source>
        <translation>将此处列出的记录保存为 CSV 文件（可用 Excel 打开）</translation>
    </message>
    <message>
        <source>Double-click an entry to open it again. Starred entries are kept when the history is cleared.</source>
        <translation>双击一条记录可重新打开。清空历史记录时，收藏的记录会保留。</translation>
    </message>
    <message>
        <source>History is switched off in Settings: new translations are not saved.</source>
        <translation>历史记录已在设置中关闭：新的翻译不会被保存。</translation>
    </message>
</context>
<context>
    <name>JobRow</name>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Translating</source>
        <translation>翻译中</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>parts not translated: %1</source>
        <translation>未翻译的部分：%1</translation>
    </message>
    <message>
        <source>Not a kind of document Fanyi translates</source>
        <translation>Fanyi 不支持翻译这种文件</translation>
    </message>
    <message>
        <source>The file is damaged</source>
        <translation>文件已损坏</translation>
    </message>
    <message>
        <source>The file is protected by a password</source>
        <translation>文件受密码保护</translation>
    </message>
    <message>
        <source>Nothing in it to translate</source>
        <translation>文件中没有需要翻译的内容</translation>
    </message>
    <message>
        <source>Not a text file</source>
        <translation>不是文本文件</translation>
    </message>
    <message>
        <source>The file cannot be read</source>
        <translation>无法读取文件</translation>
    </message>
    <message>
        <source>The translation cannot be saved</source>
        <translation>无法保存译文</translation>
    </message>
    <message>
        <source>The file is too large</source>
        <translation>文件太大</translation>
    </message>
    <message>
        <source>The text could not be translated</source>
        <translation>无法翻译其中的文字</translation>
    </message>
    <message>
        <source>Translated %1 of %2 parts; %3 left as they were; %4 failed</source>
        <translation>已翻译 %2 段中的 %1 段；%3 段保持原样；%4 段失败</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Remove from the list</source>
        <translation>从列表中移除</translation>
    </message>
</context>
<context>
    <name>JobsPanel</name>
    <message>
        <source>Clear finished</source>
        <translation>清除已结束</translation>
    </message>
    <message>
        <source>Remove the documents that are done, failed or cancelled</source>
        <translation>从列表中移除已完成、失败或已取消的文档</translation>
    </message>
    <message>
        <source>Documents (%1)</source>
        <translation>文档（%1）</translation>
    </message>
</context>
<context>
    <name>LostTermsNote</name>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1及另外 %2 个</translation>
    </message>
    <message>
        <source>⚠ The glossary&apos;s %1 could not be kept: the model broke its placeholder, so its sentence was translated without the glossary.</source>
        <translation>⚠ 术语表中的%1未能保留：模型破坏了它的占位符，所在句子已不用术语表重新翻译。</translation>
    </message>
    <message>
        <source>⚠ The glossary&apos;s %1 could not be kept: the model broke their placeholders, so their sentences were translated without the glossary.</source>
        <translation>⚠ 术语表中的%1未能保留：模型破坏了它们的占位符，所在句子已不用术语表重新翻译。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>%1 languages</source>
        <translation>%1 种语言</translation>
    </message>
    <message>
        <source>No model installed</source>
        <translation>未安装模型</translation>
    </message>
    <message>
        <source>Swap the source and target languages</source>
        <translation>互换源语言和目标语言</translation>
    </message>
    <message>
        <source>Install a model for the other direction to swap</source>
        <translation>安装反方向的模型后即可切换方向</translation>
    </message>
    <message>
        <source>Swap direction: %1</source>
        <translation>切换方向：%1</translation>
    </message>
    <message>
        <source>Switch to %1</source>
        <translation>改为 %1</translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation>自动检测：%1</translation>
    </message>
    <message>
        <source>Choose a direction by hand to keep it; Auto goes back</source>
        <translation>手动选择方向即可固定；点“自动”恢复自动检测</translation>
    </message>
    <message>
        <source>Detected: %1 (no model)</source>
        <translation>自动检测：%1（无可用模型）</translation>
    </message>
    <message>
        <source>No installed model translates from %1: download one in Models.</source>
        <translation>没有已安装的模型能从%1翻译：请在“模型”中下载一个。</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>正在翻译…</translation>
    </message>
    <message>
        <source>Copied: %1</source>
        <translation>已复制：%1</translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>翻译失败：%1</translation>
    </message>
    <message>
        <source>Translation failed</source>
        <translation>翻译失败</translation>
    </message>
    <message>
        <source>Chinese written in %1 by OpenCC, no model</source>
        <translation>已由 OpenCC 写成%1，未用模型</translation>
    </message>
    <message>
        <source>%1 s · from cache</source>
        <translation>%1 秒 · 来自缓存</translation>
    </message>
    <message>
        <source>%1 s · %2 tokens/s</source>
        <translation>%1 秒 · 每秒 %2 个词元</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>The model could not be opened</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>The model could not be opened: %1</source>
        <translation>无法打开模型：%1</translation>
    </message>
    <message>
        <source>Translate documents</source>
        <translation>翻译文档</translation>
    </message>
    <message>
        <source>Documents (%1)</source>
        <translation>文档 (%1)</translation>
    </message>
    <message>
        <source>Summarizing…</source>
        <translation>正在生成摘要…</translation>
    </message>
    <message>
        <source>No summary: %1</source>
        <translation>未能生成摘要：%1</translation>
    </message>
    <message>
        <source>Summarize a document</source>
        <translation>为文档生成摘要</translation>
    </message>
    <message>
        <source>Documents are translated by a model, and none is installed yet.</source>
        <translation>翻译文档需要模型，目前尚未安装任何模型。</translation>
    </message>
    <message>
        <source>Fanyi — offline translator</source>
        <translation>Fanyi 翻译 — 离线翻译器</translation>
    </message>
    <message>
        <source>Languages and model</source>
        <translation>语言与模型</translation>
    </message>
    <message>
        <source>Translate from (type to search)</source>
        <translation>源语言（输入文字可搜索）</translation>
    </message>
    <message>
        <source>Translate into (type to search)</source>
        <translation>目标语言（输入文字可搜索）</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Choose the direction from the language of the text</source>
        <translation>根据文本的语言自动选择翻译方向</translation>
    </message>
    <message>
        <source>Documents…</source>
        <translation>文档…</translation>
    </message>
    <message>
        <source>Translate documents (or drop files on the window)</source>
        <translation>翻译文档（也可以把文件拖到窗口上）</translation>
    </message>
    <message>
        <source>Summarize a document…</source>
        <translation>为文档生成摘要…</translation>
    </message>
    <message>
        <source>Bilingual output (original and translation)</source>
        <translation>双语输出（原文与译文）</translation>
    </message>
    <message>
        <source>Bilingual PDF</source>
        <translation>双语 PDF</translation>
    </message>
    <message>
        <source>Original and translation side by side</source>
        <translation>原文与译文左右并排</translation>
    </message>
    <message>
        <source>Original and translated pages alternating</source>
        <translation>原文页与译文页交替</translation>
    </message>
    <message>
        <source>Translate a PDF into</source>
        <translation>PDF 译成</translation>
    </message>
    <message>
        <source>A PDF with its layout</source>
        <translation>保留版面的 PDF</translation>
    </message>
    <message>
        <source>A Word document (its text only)</source>
        <translation>Word 文档（仅文字）</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
</context>
<context>
    <name>ModelManager</name>
    <message>
        <source>bundled</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>user-installed</source>
        <translation>用户安装</translation>
    </message>
    <message>
        <source>Broken: %1</source>
        <translation>已损坏：%1</translation>
    </message>
    <message>
        <source>Update available</source>
        <translation>有更新</translation>
    </message>
    <message>
        <source>Token needed</source>
        <translation>需要令牌</translation>
    </message>
    <message>
        <source>Dictionary</source>
        <translation>词典</translation>
    </message>
    <message>
        <source>%1 entries</source>
        <translation>%1 个词条</translation>
    </message>
    <message>
        <source>Without the list of models, a model pack can still be imported (Installed → Import).</source>
        <translation>没有模型列表时，仍可导入模型包（已安装 → 导入）。</translation>
    </message>
    <message>
        <source>The list of models has not been downloaded yet: click Refresh list.</source>
        <translation>尚未获取模型列表：请点击“刷新列表”。</translation>
    </message>
    <message>
        <source>The list of models shipped with Fanyi %1, made %2. It names no address to fetch a newer one from: one can be set in Settings → Downloads.</source>
        <translation>模型列表随 Fanyi %1 附带，制作于 %2。其中没有可获取更新列表的地址：可在“设置 → 下载”中设置。</translation>
    </message>
    <message>
        <source>The list of models saved at the last refresh, made %2. It names no address to fetch a newer one from: one can be set in Settings → Downloads.</source>
        <translation>模型列表是上次刷新时保存的，制作于 %2。其中没有可获取更新列表的地址：可在“设置 → 下载”中设置。</translation>
    </message>
    <message>
        <source>List of models published %1.</source>
        <translation>模型列表发布于 %1。</translation>
    </message>
    <message>
        <source>English ↔ Chinese</source>
        <translation>英语 ↔ 中文</translation>
    </message>
    <message>
        <source>Dictionary (%1 entries)</source>
        <translation>词典（%1 个词条）</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>Remove %1 from this computer?</source>
        <translation>要从这台电脑上移除 %1 吗？</translation>
    </message>
    <message>
        <source>Remove dictionary</source>
        <translation>删除词典</translation>
    </message>
    <message>
        <source>Remove the dictionary %1 from this computer?</source>
        <translation>从这台电脑上删除词典 %1？</translation>
    </message>
    <message>
        <source>Import a dictionary (ECDICT)</source>
        <translation>导入词典（ECDICT）</translation>
    </message>
    <message>
        <source>ECDICT data (*.csv *.db *.zip)</source>
        <translation>ECDICT 数据 (*.csv *.db *.zip)</translation>
    </message>
    <message>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <source>The list of models names no address to fetch a newer one from</source>
        <translation>模型列表中没有可获取更新列表的地址</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>可下载</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Languages</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Quantization</source>
        <translation>量化</translation>
    </message>
    <message>
        <source>Import dictionary…</source>
        <translation>导入词典…</translation>
    </message>
    <message>
        <source>ECDICT&apos;s data you already have: ecdict.csv, stardict.db or ecdict-sqlite-28.zip</source>
        <translation>你已有的 ECDICT 数据：ecdict.csv、stardict.db 或 ecdict-sqlite-28.zip</translation>
    </message>
    <message>
        <source>Refresh list</source>
        <translation>刷新列表</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <source>Summaries: %1</source>
        <translation>摘要：%1</translation>
    </message>
    <message>
        <source>%1 languages: %2</source>
        <translation>%1 种语言：%2</translation>
    </message>
    <message>
        <source>It does not allow commercial use.</source>
        <translation>它不允许商业使用。</translation>
    </message>
    <message>
        <source>%1 is published under %2.</source>
        <translation>%1 以 %2 发布。</translation>
    </message>
    <message>
        <source>Do you accept these terms and download it?</source>
        <translation>你接受这些条款并下载吗？</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>模型系列</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Download size</source>
        <translation>下载大小</translation>
    </message>
    <message>
        <source>Quality</source>
        <translation>质量</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>No model is installed.</source>
        <translation>尚未安装任何模型。</translation>
    </message>
    <message>
        <source>Import folder…</source>
        <translation>导入文件夹…</translation>
    </message>
    <message>
        <source>Import .zip…</source>
        <translation>导入 .zip…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Set as default</source>
        <translation>设为默认</translation>
    </message>
</context>
<context>
    <name>NoModelPage</name>
    <message>
        <source>No translation model is installed</source>
        <translation>尚未安装翻译模型</translation>
    </message>
    <message>
        <source>Fanyi translates on this computer and never sends your text anywhere. It needs a translation model, downloaded once; after that it works without the internet.</source>
        <translation>Fanyi 在这台电脑上翻译，绝不会把你的文字发送到任何地方。它需要一个翻译模型，只需下载一次；之后无需联网即可使用。</translation>
    </message>
    <message>
        <source>Download English → Chinese</source>
        <translation>下载英译中模型</translation>
    </message>
    <message>
        <source>The list of models is fetched first; the model&apos;s size and licence are shown once it is here. Needs an internet connection once.</source>
        <translation>会先获取模型列表；获取后会显示模型的大小和许可证。只需联网一次。</translation>
    </message>
    <message>
        <source>Download %1 (%2)</source>
        <translation>下载 %1（%2）</translation>
    </message>
    <message>
        <source>Model %1 from %2, licence %3: downloaded from Hugging Face, hf-mirror.com or ModelScope (Settings → Downloads) and converted on this computer. Needs an internet connection once.</source>
        <translation>模型 %1，来自 %2，许可证 %3：从 Hugging Face、hf-mirror.com 或魔搭 ModelScope 下载（设置 → 下载），在本机转换。只需联网一次。</translation>
    </message>
    <message>
        <source>Already have a model pack?</source>
        <translation>已经有模型包了？</translation>
    </message>
    <message>
        <source>Import folder…</source>
        <translation>导入文件夹…</translation>
    </message>
    <message>
        <source>Import .zip…</source>
        <translation>导入 .zip…</translation>
    </message>
</context>
<context>
    <name>OpenPath</name>
    <message>
        <source>This desktop has no program set to open it. It is here:</source>
        <translation>这台电脑的桌面没有设置打开它的程序。它在这里：</translation>
    </message>
    <message>
        <source>Copy the path</source>
        <translation>复制路径</translation>
    </message>
</context>
<context>
    <name>PackOpProgress</name>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>PackOperations</name>
    <message>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <source>Getting %1…</source>
        <translation>正在获取 %1…</translation>
    </message>
    <message>
        <source>Getting the English→Chinese model…</source>
        <translation>正在获取英译中模型…</translation>
    </message>
    <message>
        <source>Reading the list of models…</source>
        <translation>正在读取模型列表…</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <source>numbers or symbols only</source>
        <translation>只有数字或符号</translation>
    </message>
    <message>
        <source>a letter alone</source>
        <translation>单独的字母</translation>
    </message>
    <message>
        <source>code or a web address</source>
        <translation>代码或网址</translation>
    </message>
    <message>
        <source>code block</source>
        <translation>代码块</translation>
    </message>
    <message>
        <source>already Chinese</source>
        <translation>已是中文</translation>
    </message>
    <message>
        <source>already Japanese</source>
        <translation>已是日文</translation>
    </message>
    <message>
        <source>already Korean</source>
        <translation>已是韩文</translation>
    </message>
    <message>
        <source>already in Latin script</source>
        <translation>已是拉丁字母</translation>
    </message>
    <message>
        <source>other reasons</source>
        <translation>其他原因</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>text in a figure</source>
        <translation>图中文字</translation>
    </message>
    <message>
        <source>list marker</source>
        <translation>列表符号</translation>
    </message>
    <message>
        <source>rotated text</source>
        <translation>旋转的文字</translation>
    </message>
    <message>
        <source>vertical text</source>
        <translation>竖排文字</translation>
    </message>
    <message>
        <source>reference list</source>
        <translation>参考文献</translation>
    </message>
    <message>
        <source>a type specimen</source>
        <translation>字体样张</translation>
    </message>
    <message>
        <source>right-to-left text</source>
        <translation>从右向左书写的文字</translation>
    </message>
    <message>
        <source>text outside the page</source>
        <translation>页面之外的文字</translation>
    </message>
    <message>
        <source>text whose font maps no Unicode</source>
        <translation>字体没有 Unicode 映射的文字</translation>
    </message>
    <message>
        <source>its text is drawn in a way that cannot be edited, so it is left as it was</source>
        <translation>其文字的绘制方式无法编辑，保持原样</translation>
    </message>
    <message>
        <source>its text is drawn only in Type 3 fonts, pictures of glyphs that are not replaced</source>
        <translation>其文字只用 Type 3 字体绘制（字形的图片），不会被替换</translation>
    </message>
    <message>
        <source>its content stream is damaged, or two PDF parsers read it differently</source>
        <translation>其内容流已损坏，或两个 PDF 解析器读出的内容不同</translation>
    </message>
    <message>
        <source>the page layout of the PDF is not kept: this is its text, joined into paragraphs</source>
        <translation>没有保留 PDF 的页面版式：这是它的文字，已合并成段落</translation>
    </message>
    <message>
        <source>the model kept repeating itself</source>
        <translation>模型不断重复同样的内容</translation>
    </message>
    <message>
        <source>the model&apos;s output ran far longer than the source</source>
        <translation>模型的输出远长于原文</translation>
    </message>
    <message>
        <source>the model returned nothing</source>
        <translation>模型没有返回任何内容</translation>
    </message>
    <message>
        <source>it is English in Chinese text, and no model was there to translate it</source>
        <translation>这是中文文本中的英文，当时没有可翻译它的模型</translation>
    </message>
    <message>
        <source>{reason}, also when translated again with a repetition guard</source>
        <translation>{reason}，加上防重复设置再译一次也是如此</translation>
    </message>
    <message>
        <source>sentence “{sentence}”: {reason}</source>
        <translation>句子“{sentence}”：{reason}</translation>
    </message>
    <message>
        <source>the translator returned an empty translation</source>
        <translation>翻译器返回了空译文</translation>
    </message>
    <message>
        <source>most of its words were left as they were: {left} of {total} letters ({reasons})</source>
        <translation>大部分文字保留了原文：{total} 个字母中有 {left} 个（{reasons}）</translation>
    </message>
    <message>
        <source>page {page}: {facts}</source>
        <translation>第 {page} 页：{facts}</translation>
    </message>
    <message>
        <source>could not be rewritten ({reason}) and is kept as it was</source>
        <translation>无法改写（{reason}），保留原样</translation>
    </message>
    <message>
        <source>{count} drawn smaller than the rest of their kind to fit</source>
        <translation>{count} 段缩小绘制（比同类文字小）才放得下</translation>
    </message>
    <message>
        <source>{count} drawn below the smallest size set for them to fit</source>
        <translation>{count} 段以低于设定最小字号的大小绘制才放得下</translation>
    </message>
    <message>
        <source>{count} cut short (“…”): they did not fit even at the smallest size</source>
        <translation>{count} 段被截短（“…”）：即使用最小字号也放不下</translation>
    </message>
    <message>
        <source>the font has no glyph for {characters}: those characters are not drawn</source>
        <translation>字体中没有 {characters} 的字形：这些字符未绘制</translation>
    </message>
    <message>
        <source>page {pages} has</source>
        <translation>第 {pages} 页</translation>
    </message>
    <message>
        <source>pages {pages} have</source>
        <translation>第 {pages} 页</translation>
    </message>
    <message>
        <source>{pages} no text layer (a scan): the text there was recognised by OCR and may hold misread characters</source>
        <translation>{pages}没有文字层（扫描件）：其中的文字由 OCR 识别，可能有识别错误的字符</translation>
    </message>
    <message>
        <source>{pages} no text layer and were left out: {error}</source>
        <translation>{pages}没有文字层，已略过：{error}</translation>
    </message>
    <message>
        <source>page %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <source>paragraph %1</source>
        <translation>第 %1 段</translation>
    </message>
    <message>
        <source>slide %1</source>
        <translation>第 %1 张幻灯片</translation>
    </message>
    <message>
        <source>notes of slide %1</source>
        <translation>第 %1 张幻灯片的备注</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>subtitle %1</source>
        <translation>第 %1 条字幕</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message>
        <source>%1 is written, but some parts could not be translated and are left as they were.</source>
        <translation>已生成 %1，但有些部分无法翻译，保持了原样。</translation>
    </message>
    <message>
        <source>%1 is written.</source>
        <translation>已生成 %1。</translation>
    </message>
    <message>
        <source>Translated</source>
        <translation>已翻译</translation>
    </message>
    <message>
        <source>Left as they were</source>
        <translation>保持原样</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 of %2 parts</source>
        <translation>%2 段中的 %1 段</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>原文</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>……还有 %1 处</translation>
    </message>
    <message>
        <source>the glossary&apos;s %1 could not be kept (the model broke their placeholders): their sentences were translated without the glossary</source>
        <translation>术语表中的 %1 未能保留（模型破坏了它们的占位符）：所在句子已不用术语表重新翻译</translation>
    </message>
    <message>
        <source>%1 control characters that the model wrote and no document may hold were left out</source>
        <translation>模型输出的 %1 个控制字符不能写入文档，已删去</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
</context>
<context>
    <name>ScreenTextController</name>
    <message>
        <source>The screen could not be captured.</source>
        <translation>无法截取屏幕。</translation>
    </message>
    <message>
        <source>No text was found in the selected region.</source>
        <translation>所选区域中没有找到文字。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>An address must start with https:// or http://.</source>
        <translation>地址必须以 https:// 或 http:// 开头。</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Chinese variant</source>
        <translation>中文变体</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Candidates compared</source>
        <translation>比较的候选数</translation>
    </message>
    <message>
        <source>How many candidate translations the model weighs against each other as it writes (beam search). More can read a little better but is slower; 1 is the fastest. “Model default” uses the model&apos;s own choice (4 for the OPUS-MT models).</source>
        <translation>模型在生成译文时同时比较的候选译文个数（束搜索）。数值越大译文可能略好，但速度更慢；1 最快。“模型默认”使用模型自己的设置（OPUS-MT 模型为 4）。</translation>
    </message>
    <message>
        <source>Longest translation</source>
        <translation>译文最大长度</translation>
    </message>
    <message>
        <source>A sentence&apos;s translation is cut off after this many tokens (word pieces; a Chinese character is about one). It matters only for very long sentences, and it stops a model that repeats itself. “Model default” uses the model&apos;s own limit (512 for the OPUS-MT models).</source>
        <translation>一句话的译文超过这么多个词元（词片段；一个汉字约为一个）后会被截断。只对很长的句子有影响，也能让陷入重复的模型停下来。“模型默认”使用模型自己的上限（OPUS-MT 模型为 512）。</translation>
    </message>
    <message>
        <source>Processor cores</source>
        <translation>使用的处理器核心数</translation>
    </message>
    <message>
        <source>How many processor cores a translation may use. More is faster, up to about four. “Automatic” leaves one core free so that the window keeps responding.</source>
        <translation>一次翻译最多可使用的处理器核心数。核心越多越快，约 4 个以上提升不大。“自动”会留出一个核心，让窗口保持流畅。</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Text size</source>
        <translation>文字大小</translation>
    </message>
    <message>
        <source>Size of the text you type and of the translation, in points</source>
        <translation>输入文字和译文的字号（磅）</translation>
    </message>
    <message>
        <source>Clipboard hotkey</source>
        <translation>剪贴板快捷键</translation>
    </message>
    <message>
        <source>Screenshot hotkey</source>
        <translation>截图翻译快捷键</translation>
    </message>
    <message>
        <source>Models come from where their authors publish them. Automatic tries the source that worked last time first, then Hugging Face, its mirror hf-mirror.com and ModelScope, and uses the first that answers (one silent for 3 seconds is passed over). In mainland China, choose hf-mirror.com or ModelScope. A custom address is a server that works like Hugging Face.</source>
        <translation>模型从其作者发布的地方下载。“自动”先尝试上次成功的来源，再依次尝试 Hugging Face、其镜像 hf-mirror.com 和魔搭 ModelScope，使用第一个有响应的来源（3 秒无响应的来源会被跳过）。在中国大陆，请选择 hf-mirror.com 或魔搭 ModelScope。自定义地址是与 Hugging Face 接口相同的服务器。</translation>
    </message>
    <message>
        <source>Model list address</source>
        <translation>模型列表地址</translation>
    </message>
    <message>
        <source>GitHub mirror (dictionaries)</source>
        <translation>GitHub 镜像（词典）</translation>
    </message>
    <message>
        <source>The dictionary comes from GitHub. Where GitHub is blocked or slow, enter a GitHub proxy&apos;s address: it is put before GitHub&apos;s (https://proxy/https://github.com/…) and tried first. The file is checked against what the dictionary&apos;s recipe pins, whichever address sends it.</source>
        <translation>词典从 GitHub 下载。GitHub 无法访问或很慢时，填入一个 GitHub 代理的地址：它会加在 GitHub 地址之前（https://代理/https://github.com/…）并优先尝试。无论文件来自哪个地址，都会按词典配方固定的校验值检查。</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Model default</source>
        <translation>模型默认值</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Translate as you type</source>
        <translation>边输入边翻译</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Press Ctrl+C twice</source>
        <translation>连按两次 Ctrl+C</translation>
    </message>
    <message>
        <source>Key combination</source>
        <translation>组合键</translation>
    </message>
    <message>
        <source>Copy text, then press the hotkey. You can also bind “%1” to a desktop shortcut.</source>
        <translation>先复制文本，再按快捷键。也可以把“%1”绑定到桌面快捷键。</translation>
    </message>
    <message>
        <source>Global hotkeys cannot work here; bind “%1” to a desktop shortcut instead.</source>
        <translation>这里无法使用全局快捷键；请改为把“%1”绑定到桌面快捷键。</translation>
    </message>
    <message>
        <source>Start Fanyi when I log in (in the tray)</source>
        <translation>登录时启动 Fanyi（在托盘中）</translation>
    </message>
    <message>
        <source>The hotkey translates selected text (no need to copy it)</source>
        <translation>快捷键翻译选中的文字（无需复制）</translation>
    </message>
    <message>
        <source>Select text in any window and press the hotkey; without a selection, the clipboard is translated.</source>
        <translation>在任意窗口中选中文字后按快捷键；没有选中文字时翻译剪贴板。</translation>
    </message>
    <message>
        <source>Press it, then drag around text on the screen to translate it. You can also bind “%1” to a desktop shortcut.</source>
        <translation>按下快捷键，再在屏幕上框选文字即可翻译。也可以把“%1”绑定到桌面快捷键。</translation>
    </message>
    <message>
        <source>Bind “%1” to a desktop shortcut to translate text on the screen.</source>
        <translation>把“%1”绑定到桌面快捷键，即可翻译屏幕上的文字。</translation>
    </message>
    <message>
        <source>Start in the tray</source>
        <translation>启动时最小化到托盘</translation>
    </message>
    <message>
        <source>Closing the window keeps Fanyi in the tray</source>
        <translation>关闭窗口后 Fanyi 仍在托盘中运行</translation>
    </message>
    <message>
        <source>This desktop has no system tray.</source>
        <translation>此桌面没有系统托盘。</translation>
    </message>
    <message>
        <source>Keep a history of translations</source>
        <translation>保存翻译历史</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>How Chinese is written. 台灣正體 and 香港繁體: the model&apos;s Simplified, converted into Traditional with the words Taiwan or Hong Kong use (OpenCC), for every model that writes Chinese. 模型繁體 and 粤语: as the model writes them, where it can.</source>
        <translation>中文的书写方式。台灣正體和香港繁體：把模型的简体译文用 OpenCC 转换为繁体，并换成台湾或香港的用语，凡是能写中文的模型都可用。模型繁體和粤语：由模型直接写出，仅在模型支持时可用。</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Shortcuts &amp;&amp; tray</source>
        <translation>快捷键和托盘</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Download models from</source>
        <translation>模型下载来源</translation>
    </message>
    <message>
        <source>Hugging Face token</source>
        <translation>Hugging Face 令牌</translation>
    </message>
    <message>
        <source>Only for models that Hugging Face gives out after you accept their licence (TranslateGemma). Create one at huggingface.co → Settings → Access Tokens. It is sent to Hugging Face only (to hf-mirror.com too when you choose it), and kept in your settings file.</source>
        <translation>仅用于需在 Hugging Face 上接受许可证后才能下载的模型（TranslateGemma）。在 huggingface.co → Settings → Access Tokens 创建。令牌只发送给 Hugging Face（选择 hf-mirror.com 时也发送给它），并保存在你的设置文件中。</translation>
    </message>
    <message>
        <source>Other apps</source>
        <translation>其他应用</translation>
    </message>
    <message>
        <source>LibreTranslate, DeepL, Ollama</source>
        <translation>LibreTranslate、DeepL、Ollama</translation>
    </message>
    <message>
        <source>DeepLX, MTranServer</source>
        <translation>DeepLX、MTranServer</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>Immersive Translate</source>
        <translation>沉浸式翻译</translation>
    </message>
    <message>
        <source>KISS Translator</source>
        <translation>简约翻译（KISS Translator）</translation>
    </message>
    <message>
        <source>Let other apps on this computer use Fanyi</source>
        <translation>允许本机上的其他应用使用 Fanyi</translation>
    </message>
    <message>
        <source>Apps such as Pot, Zotero, Immersive Translate or Calibre then translate with Fanyi: enter the address below in them. Only programs on this computer can connect.</source>
        <translation>开启后，Pot、Zotero、沉浸式翻译或 Calibre 等应用即可用 Fanyi 翻译：在这些应用中填入下面的地址。只有本机上的程序可以连接。</translation>
    </message>
    <message>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <source>ModelScope</source>
        <translation>魔搭 ModelScope</translation>
    </message>
    <message>
        <source>Custom address</source>
        <translation>自定义地址</translation>
    </message>
    <message>
        <source>In mainland China, where huggingface.co is blocked or slow, choose hf-mirror.com or ModelScope. Every file is checked against the checksums of the model&apos;s pinned revision, whichever source sends it. The system proxy is used. The model list address is optional: the list comes with Fanyi.</source>
        <translation>在中国大陆，huggingface.co 无法访问或很慢，请选择 hf-mirror.com 或魔搭 ModelScope。无论来自哪个来源，每个文件都会按模型固定版本的校验和进行核对。使用系统代理。模型列表地址可不填：模型列表随 Fanyi 提供。</translation>
    </message>
    <message>
        <source>Optional: apps must then send this key</source>
        <translation>可选：设置后，其他应用必须发送此密钥</translation>
    </message>
</context>
<context>
    <name>SourcePane</name>
    <message>
        <source>Characters: %1</source>
        <translation>字符数：%1</translation>
    </message>
    <message>
        <source>Type or paste text to translate…</source>
        <translation>输入或粘贴要翻译的文本…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <source>Translate now (Ctrl+Enter)</source>
        <translation>立即翻译（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Summarize</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>The gist of the text, in the language of the translation</source>
        <translation>用译文的语言概括这段文字的要点</translation>
    </message>
</context>
<context>
    <name>SummaryDialog</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Saved: %1</source>
        <translation>已保存：%1</translation>
    </message>
    <message>
        <source>Summary of %1</source>
        <translation>%1 的摘要</translation>
    </message>
    <message>
        <source>No summary: %1</source>
        <translation>未能生成摘要：%1</translation>
    </message>
    <message>
        <source>Length:</source>
        <translation>篇幅：</translation>
    </message>
    <message>
        <source>Short summary</source>
        <translation>简短摘要</translation>
    </message>
    <message>
        <source>By section</source>
        <translation>按章节</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Save as Markdown</source>
        <translation>存为 Markdown</translation>
    </message>
    <message>
        <source>Save as Word</source>
        <translation>存为 Word</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>The summary appears here.</source>
        <translation>摘要将显示在这里。</translation>
    </message>
</context>
<context>
    <name>TargetPane</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>The translation appears here.</source>
        <translation>译文将显示在这里。</translation>
    </message>
</context>
<context>
    <name>TranslatePopup</name>
    <message>
        <source>The clipboard holds no text.</source>
        <translation>剪贴板中没有文本。</translation>
    </message>
    <message>
        <source>Translating…</source>
        <translation>正在翻译…</translation>
    </message>
    <message>
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
    <message>
        <source>No summary: %1</source>
        <translation>未能生成摘要：%1</translation>
    </message>
    <message>
        <source>No translation model is installed. Download one (once; after that Fanyi works offline), or import a model pack in Models.</source>
        <translation>尚未安装翻译模型。请下载一个（只需一次，之后 Fanyi 可离线使用），或在“模型”中导入模型包。</translation>
    </message>
    <message>
        <source>Summarizing…</source>
        <translation>正在生成摘要…</translation>
    </message>
    <message>
        <source>Copied: %1</source>
        <translation>已复制：%1</translation>
    </message>
    <message>
        <source>Translation failed: %1</source>
        <translation>翻译失败：%1</translation>
    </message>
    <message>
        <source>Fanyi</source>
        <translation>Fanyi 翻译</translation>
    </message>
    <message>
        <source>Detected: %1</source>
        <translation>自动检测：%1</translation>
    </message>
    <message>
        <source>Detected: %1 (no model)</source>
        <translation>自动检测：%1（无可用模型）</translation>
    </message>
    <message>
        <source>Translate the other way round</source>
        <translation>反向翻译</translation>
    </message>
    <message>
        <source>Install a model for the other direction to swap</source>
        <translation>安装反方向的模型后才能切换方向</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Keep the popup open when another window is clicked</source>
        <translation>点击其他窗口时保持弹窗打开</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Summarize</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>The gist of the copied text instead of its translation</source>
        <translation>显示所复制文字的要点，而不是译文</translation>
    </message>
    <message>
        <source>Open in main window</source>
        <translation>在主窗口中打开</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>下载…</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
</context>
<context>
    <name>TranslationWorker</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
</context>
<context>
    <name>UntranslatedBadge</name>
    <message>
        <source>⚠ 1 sentence untranslated</source>
        <translation>⚠ 1 句未翻译</translation>
    </message>
    <message>
        <source>⚠ %1 sentences untranslated</source>
        <translation>⚠ %1 句未翻译</translation>
    </message>
    <message>
        <source>the model kept repeating itself</source>
        <translation>模型不断重复同样的内容</translation>
    </message>
    <message>
        <source>the model&apos;s output ran far longer than the sentence</source>
        <translation>模型的输出远长于原句</translation>
    </message>
    <message>
        <source>the model returned nothing</source>
        <translation>模型没有返回任何内容</translation>
    </message>
    <message>
        <source>it is English in Chinese text, and no model was there to translate it</source>
        <translation>这是中文文本中的英文，当时没有可翻译它的模型</translation>
    </message>
    <message>
        <source>The model could not translate these sentences, even when it tried again, so they are shown as they were:</source>
        <translation>模型无法翻译以下句子（重试后仍然失败），因此按原文显示：</translation>
    </message>
</context>
<context>
    <name>_TrayMenu</name>
    <message>
        <source>Show Fanyi</source>
        <translation>显示 Fanyi</translation>
    </message>
    <message>
        <source>Translate clipboard</source>
        <translation>翻译剪贴板</translation>
    </message>
    <message>
        <source>Translate a screen region</source>
        <translation>翻译屏幕区域</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
</context>
<context>
    <name>_Worker</name>
    <message>
        <source>Text cannot be recognised: %1.</source>
        <translation>无法识别文字：%1。</translation>
    </message>
    <message>
        <source>This region cannot be recognised: %1.</source>
        <translation>无法识别此区域：%1。</translation>
    </message>
    <message>
        <source>Text recognition failed: %1</source>
        <translation>文字识别失败：%1</translation>
    </message>
</context>
<context>
    <name>dictionary</name>
    <message>
        <source>past tense</source>
        <translation>过去式</translation>
    </message>
    <message>
        <source>past participle</source>
        <translation>过去分词</translation>
    </message>
    <message>
        <source>present participle</source>
        <translation>现在分词</translation>
    </message>
    <message>
        <source>third person singular</source>
        <translation>第三人称单数</translation>
    </message>
    <message>
        <source>comparative</source>
        <translation>比较级</translation>
    </message>
    <message>
        <source>superlative</source>
        <translation>最高级</translation>
    </message>
    <message>
        <source>plural</source>
        <translation>复数</translation>
    </message>
    <message>
        <source>Zhongkao</source>
        <translation>中考</translation>
    </message>
    <message>
        <source>Gaokao</source>
        <translation>高考</translation>
    </message>
    <message>
        <source>Kaoyan</source>
        <translation>考研</translation>
    </message>
    <message>
        <source>CET-4</source>
        <translation>四级</translation>
    </message>
    <message>
        <source>CET-6</source>
        <translation>六级</translation>
    </message>
    <message>
        <source>TOEFL</source>
        <translation>托福</translation>
    </message>
    <message>
        <source>IELTS</source>
        <translation>雅思</translation>
    </message>
    <message>
        <source>GRE</source>
        <translation>GRE</translation>
    </message>
</context>
<context>
    <name>hotkey</name>
    <message>
        <source>Wayland does not let applications watch the keyboard.</source>
        <translation>Wayland 不允许应用程序监听键盘。</translation>
    </message>
    <message>
        <source>There is no X display.</source>
        <translation>没有 X 显示服务器。</translation>
    </message>
    <message>
        <source>The pynput library is not usable: %1</source>
        <translation>pynput 库无法使用：%1</translation>
    </message>
    <message>
        <source>The hotkey could not be set: %1</source>
        <translation>无法设置快捷键：%1</translation>
    </message>
</context>
<context>
    <name>languages</name>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Sindhi</source>
        <translation>信德语</translation>
    </message>
    <message>
        <source>Sinhala</source>
        <translation>僧伽罗语</translation>
    </message>
    <message>
        <source>Slovak</source>
        <translation>斯洛伐克语</translation>
    </message>
    <message>
        <source>Slovenian</source>
        <translation>斯洛文尼亚语</translation>
    </message>
    <message>
        <source>Somali</source>
        <translation>索马里语</translation>
    </message>
    <message>
        <source>Albanian</source>
        <translation>阿尔巴尼亚语</translation>
    </message>
    <message>
        <source>Serbian</source>
        <translation>塞尔维亚语</translation>
    </message>
    <message>
        <source>Swati</source>
        <translation>斯瓦蒂语</translation>
    </message>
    <message>
        <source>Sundanese</source>
        <translation>巽他语</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>瑞典语</translation>
    </message>
    <message>
        <source>Swahili</source>
        <translation>斯瓦希里语</translation>
    </message>
    <message>
        <source>Tamil</source>
        <translation>泰米尔语</translation>
    </message>
    <message>
        <source>Telugu</source>
        <translation>泰卢固语</translation>
    </message>
    <message>
        <source>Thai</source>
        <translation>泰语</translation>
    </message>
    <message>
        <source>Tagalog</source>
        <translation>他加禄语</translation>
    </message>
    <message>
        <source>Tswana</source>
        <translation>茨瓦纳语</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>土耳其语</translation>
    </message>
    <message>
        <source>Ukrainian</source>
        <translation>乌克兰语</translation>
    </message>
    <message>
        <source>Urdu</source>
        <translation>乌尔都语</translation>
    </message>
    <message>
        <source>Uzbek</source>
        <translation>乌兹别克语</translation>
    </message>
    <message>
        <source>Vietnamese</source>
        <translation>越南语</translation>
    </message>
    <message>
        <source>Wolof</source>
        <translation>沃洛夫语</translation>
    </message>
    <message>
        <source>Xhosa</source>
        <translation>科萨语</translation>
    </message>
    <message>
        <source>Yiddish</source>
        <translation>意第绪语</translation>
    </message>
    <message>
        <source>Yoruba</source>
        <translation>约鲁巴语</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>Japanese</source>
        <translation>日语</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>韩语</translation>
    </message>
    <message>
        <source>French</source>
        <translation>法语</translation>
    </message>
    <message>
        <source>Afrikaans</source>
        <translation>南非荷兰语</translation>
    </message>
    <message>
        <source>Amharic</source>
        <translation>阿姆哈拉语</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>阿拉伯语</translation>
    </message>
    <message>
        <source>Asturian</source>
        <translation>阿斯图里亚斯语</translation>
    </message>
    <message>
        <source>Azerbaijani</source>
        <translation>阿塞拜疆语</translation>
    </message>
    <message>
        <source>Bashkir</source>
        <translation>巴什基尔语</translation>
    </message>
    <message>
        <source>Belarusian</source>
        <translation>白俄罗斯语</translation>
    </message>
    <message>
        <source>Bulgarian</source>
        <translation>保加利亚语</translation>
    </message>
    <message>
        <source>Bengali</source>
        <translation>孟加拉语</translation>
    </message>
    <message>
        <source>Breton</source>
        <translation>布列塔尼语</translation>
    </message>
    <message>
        <source>Bosnian</source>
        <translation>波斯尼亚语</translation>
    </message>
    <message>
        <source>Catalan</source>
        <translation>加泰罗尼亚语</translation>
    </message>
    <message>
        <source>Cebuano</source>
        <translation>宿务语</translation>
    </message>
    <message>
        <source>Czech</source>
        <translation>捷克语</translation>
    </message>
    <message>
        <source>Welsh</source>
        <translation>威尔士语</translation>
    </message>
    <message>
        <source>Danish</source>
        <translation>丹麦语</translation>
    </message>
    <message>
        <source>German</source>
        <translation>德语</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>希腊语</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>西班牙语</translation>
    </message>
    <message>
        <source>Estonian</source>
        <translation>爱沙尼亚语</translation>
    </message>
    <message>
        <source>Persian</source>
        <translation>波斯语</translation>
    </message>
    <message>
        <source>Fula</source>
        <translation>富拉语</translation>
    </message>
    <message>
        <source>Finnish</source>
        <translation>芬兰语</translation>
    </message>
    <message>
        <source>Western Frisian</source>
        <translation>西弗里西亚语</translation>
    </message>
    <message>
        <source>Irish</source>
        <translation>爱尔兰语</translation>
    </message>
    <message>
        <source>Scottish Gaelic</source>
        <translation>苏格兰盖尔语</translation>
    </message>
    <message>
        <source>Galician</source>
        <translation>加利西亚语</translation>
    </message>
    <message>
        <source>Gujarati</source>
        <translation>古吉拉特语</translation>
    </message>
    <message>
        <source>Hausa</source>
        <translation>豪萨语</translation>
    </message>
    <message>
        <source>Hebrew</source>
        <translation>希伯来语</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>印地语</translation>
    </message>
    <message>
        <source>Croatian</source>
        <translation>克罗地亚语</translation>
    </message>
    <message>
        <source>Haitian Creole</source>
        <translation>海地克里奥尔语</translation>
    </message>
    <message>
        <source>Hungarian</source>
        <translation>匈牙利语</translation>
    </message>
    <message>
        <source>Armenian</source>
        <translation>亚美尼亚语</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>印度尼西亚语</translation>
    </message>
    <message>
        <source>Igbo</source>
        <translation>伊博语</translation>
    </message>
    <message>
        <source>Ilocano</source>
        <translation>伊洛卡诺语</translation>
    </message>
    <message>
        <source>Icelandic</source>
        <translation>冰岛语</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>意大利语</translation>
    </message>
    <message>
        <source>Javanese</source>
        <translation>爪哇语</translation>
    </message>
    <message>
        <source>Georgian</source>
        <translation>格鲁吉亚语</translation>
    </message>
    <message>
        <source>Kazakh</source>
        <translation>哈萨克语</translation>
    </message>
    <message>
        <source>Khmer</source>
        <translation>高棉语</translation>
    </message>
    <message>
        <source>Kannada</source>
        <translation>卡纳达语</translation>
    </message>
    <message>
        <source>Luxembourgish</source>
        <translation>卢森堡语</translation>
    </message>
    <message>
        <source>Ganda</source>
        <translation>卢干达语</translation>
    </message>
    <message>
        <source>Lingala</source>
        <translation>林加拉语</translation>
    </message>
    <message>
        <source>Lao</source>
        <translation>老挝语</translation>
    </message>
    <message>
        <source>Lithuanian</source>
        <translation>立陶宛语</translation>
    </message>
    <message>
        <source>Latvian</source>
        <translation>拉脱维亚语</translation>
    </message>
    <message>
        <source>Malagasy</source>
        <translation>马达加斯加语</translation>
    </message>
    <message>
        <source>Macedonian</source>
        <translation>马其顿语</translation>
    </message>
    <message>
        <source>Malayalam</source>
        <translation>马拉雅拉姆语</translation>
    </message>
    <message>
        <source>Mongolian</source>
        <translation>蒙古语</translation>
    </message>
    <message>
        <source>Marathi</source>
        <translation>马拉地语</translation>
    </message>
    <message>
        <source>Malay</source>
        <translation>马来语</translation>
    </message>
    <message>
        <source>Burmese</source>
        <translation>缅甸语</translation>
    </message>
    <message>
        <source>Nepali</source>
        <translation>尼泊尔语</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>荷兰语</translation>
    </message>
    <message>
        <source>Norwegian</source>
        <translation>挪威语</translation>
    </message>
    <message>
        <source>Northern Sotho</source>
        <translation>北索托语</translation>
    </message>
    <message>
        <source>Occitan</source>
        <translation>奥克语</translation>
    </message>
    <message>
        <source>Odia</source>
        <translation>奥里亚语</translation>
    </message>
    <message>
        <source>Punjabi</source>
        <translation>旁遮普语</translation>
    </message>
    <message>
        <source>Polish</source>
        <translation>波兰语</translation>
    </message>
    <message>
        <source>Pashto</source>
        <translation>普什图语</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>葡萄牙语</translation>
    </message>
    <message>
        <source>Romanian</source>
        <translation>罗马尼亚语</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>俄语</translation>
    </message>
    <message>
        <source>Zulu</source>
        <translation>祖鲁语</translation>
    </message>
    <message>
        <source>Acehnese</source>
        <translation>亚齐语</translation>
    </message>
    <message>
        <source>Mesopotamian Arabic</source>
        <translation>美索不达米亚阿拉伯语</translation>
    </message>
    <message>
        <source>Ta&apos;izzi-Adeni Arabic</source>
        <translation>塔伊兹-亚丁阿拉伯语</translation>
    </message>
    <message>
        <source>Tunisian Arabic</source>
        <translation>突尼斯阿拉伯语</translation>
    </message>
    <message>
        <source>South Levantine Arabic</source>
        <translation>南黎凡特阿拉伯语</translation>
    </message>
    <message>
        <source>Akan</source>
        <translation>阿坎语</translation>
    </message>
    <message>
        <source>North Levantine Arabic</source>
        <translation>北黎凡特阿拉伯语</translation>
    </message>
    <message>
        <source>Modern Standard Arabic</source>
        <translation>现代标准阿拉伯语</translation>
    </message>
    <message>
        <source>Najdi Arabic</source>
        <translation>纳季迪阿拉伯语</translation>
    </message>
    <message>
        <source>Moroccan Arabic</source>
        <translation>摩洛哥阿拉伯语</translation>
    </message>
    <message>
        <source>Egyptian Arabic</source>
        <translation>埃及阿拉伯语</translation>
    </message>
    <message>
        <source>Assamese</source>
        <translation>阿萨姆语</translation>
    </message>
    <message>
        <source>Awadhi</source>
        <translation>阿瓦德语</translation>
    </message>
    <message>
        <source>Central Aymara</source>
        <translation>中部艾马拉语</translation>
    </message>
    <message>
        <source>South Azerbaijani</source>
        <translation>南阿塞拜疆语</translation>
    </message>
    <message>
        <source>North Azerbaijani</source>
        <translation>北阿塞拜疆语</translation>
    </message>
    <message>
        <source>Bambara</source>
        <translation>班巴拉语</translation>
    </message>
    <message>
        <source>Balinese</source>
        <translation>巴厘语</translation>
    </message>
    <message>
        <source>Bemba</source>
        <translation>本巴语</translation>
    </message>
    <message>
        <source>Bhojpuri</source>
        <translation>博杰普尔语</translation>
    </message>
    <message>
        <source>Banjar</source>
        <translation>班贾尔语</translation>
    </message>
    <message>
        <source>Tibetan</source>
        <translation>藏语</translation>
    </message>
    <message>
        <source>Buginese</source>
        <translation>布吉语</translation>
    </message>
    <message>
        <source>Chokwe</source>
        <translation>乔克维语</translation>
    </message>
    <message>
        <source>Central Kurdish</source>
        <translation>中库尔德语</translation>
    </message>
    <message>
        <source>Crimean Tatar</source>
        <translation>克里米亚鞑靼语</translation>
    </message>
    <message>
        <source>Southwestern Dinka</source>
        <translation>西南丁卡语</translation>
    </message>
    <message>
        <source>Dyula</source>
        <translation>迪尤拉语</translation>
    </message>
    <message>
        <source>Dzongkha</source>
        <translation>宗卡语</translation>
    </message>
    <message>
        <source>Esperanto</source>
        <translation>世界语</translation>
    </message>
    <message>
        <source>Basque</source>
        <translation>巴斯克语</translation>
    </message>
    <message>
        <source>Ewe</source>
        <translation>埃维语</translation>
    </message>
    <message>
        <source>Faroese</source>
        <translation>法罗语</translation>
    </message>
    <message>
        <source>Western Persian</source>
        <translation>西波斯语</translation>
    </message>
    <message>
        <source>Fijian</source>
        <translation>斐济语</translation>
    </message>
    <message>
        <source>Fon</source>
        <translation>丰语</translation>
    </message>
    <message>
        <source>Friulian</source>
        <translation>弗留利语</translation>
    </message>
    <message>
        <source>Nigerian Fulfulde</source>
        <translation>尼日利亚富拉语</translation>
    </message>
    <message>
        <source>Guarani</source>
        <translation>瓜拉尼语</translation>
    </message>
    <message>
        <source>Chhattisgarhi</source>
        <translation>恰蒂斯加尔语</translation>
    </message>
    <message>
        <source>Kabyle</source>
        <translation>卡拜尔语</translation>
    </message>
    <message>
        <source>Jingpho</source>
        <translation>景颇语</translation>
    </message>
    <message>
        <source>Kamba</source>
        <translation>卡姆巴语</translation>
    </message>
    <message>
        <source>Kashmiri</source>
        <translation>克什米尔语</translation>
    </message>
    <message>
        <source>Central Kanuri</source>
        <translation>中卡努里语</translation>
    </message>
    <message>
        <source>Kabiyè</source>
        <translation>卡比耶语</translation>
    </message>
    <message>
        <source>Kabuverdianu</source>
        <translation>佛得角克里奥尔语</translation>
    </message>
    <message>
        <source>Kikuyu</source>
        <translation>基库尤语</translation>
    </message>
    <message>
        <source>Kinyarwanda</source>
        <translation>卢旺达语</translation>
    </message>
    <message>
        <source>Kyrgyz</source>
        <translation>吉尔吉斯语</translation>
    </message>
    <message>
        <source>Kimbundu</source>
        <translation>金本杜语</translation>
    </message>
    <message>
        <source>Kikongo</source>
        <translation>刚果语</translation>
    </message>
    <message>
        <source>Northern Kurdish</source>
        <translation>北库尔德语</translation>
    </message>
    <message>
        <source>Ligurian</source>
        <translation>利古里亚语</translation>
    </message>
    <message>
        <source>Limburgish</source>
        <translation>林堡语</translation>
    </message>
    <message>
        <source>Lombard</source>
        <translation>伦巴第语</translation>
    </message>
    <message>
        <source>Latgalian</source>
        <translation>拉特加莱语</translation>
    </message>
    <message>
        <source>Luba-Kasai</source>
        <translation>卢巴-开赛语</translation>
    </message>
    <message>
        <source>Luo</source>
        <translation>卢奥语</translation>
    </message>
    <message>
        <source>Mizo</source>
        <translation>米佐语</translation>
    </message>
    <message>
        <source>Magahi</source>
        <translation>摩揭陀语</translation>
    </message>
    <message>
        <source>Maithili</source>
        <translation>迈蒂利语</translation>
    </message>
    <message>
        <source>Minangkabau</source>
        <translation>米南佳保语</translation>
    </message>
    <message>
        <source>Maltese</source>
        <translation>马耳他语</translation>
    </message>
    <message>
        <source>Meitei</source>
        <translation>曼尼普尔语</translation>
    </message>
    <message>
        <source>Mossi</source>
        <translation>莫西语</translation>
    </message>
    <message>
        <source>Maori</source>
        <translation>毛利语</translation>
    </message>
    <message>
        <source>Norwegian Nynorsk</source>
        <translation>新挪威语</translation>
    </message>
    <message>
        <source>Norwegian Bokmål</source>
        <translation>书面挪威语</translation>
    </message>
    <message>
        <source>Nuer</source>
        <translation>努尔语</translation>
    </message>
    <message>
        <source>Nyanja</source>
        <translation>齐切瓦语</translation>
    </message>
    <message>
        <source>West Central Oromo</source>
        <translation>中西部奥罗莫语</translation>
    </message>
    <message>
        <source>Pangasinan</source>
        <translation>邦阿西楠语</translation>
    </message>
    <message>
        <source>Papiamento</source>
        <translation>帕皮阿门托语</translation>
    </message>
    <message>
        <source>Dari</source>
        <translation>达里语</translation>
    </message>
    <message>
        <source>Ayacucho Quechua</source>
        <translation>阿亚库乔克丘亚语</translation>
    </message>
    <message>
        <source>Rundi</source>
        <translation>基隆迪语</translation>
    </message>
    <message>
        <source>Sango</source>
        <translation>桑戈语</translation>
    </message>
    <message>
        <source>Sanskrit</source>
        <translation>梵语</translation>
    </message>
    <message>
        <source>Santali</source>
        <translation>桑塔利语</translation>
    </message>
    <message>
        <source>Sicilian</source>
        <translation>西西里语</translation>
    </message>
    <message>
        <source>Shan</source>
        <translation>掸语</translation>
    </message>
    <message>
        <source>Samoan</source>
        <translation>萨摩亚语</translation>
    </message>
    <message>
        <source>Shona</source>
        <translation>绍纳语</translation>
    </message>
    <message>
        <source>Southern Sotho</source>
        <translation>南索托语</translation>
    </message>
    <message>
        <source>Sardinian</source>
        <translation>撒丁语</translation>
    </message>
    <message>
        <source>Silesian</source>
        <translation>西里西亚语</translation>
    </message>
    <message>
        <source>Tatar</source>
        <translation>鞑靼语</translation>
    </message>
    <message>
        <source>Tajik</source>
        <translation>塔吉克语</translation>
    </message>
    <message>
        <source>Tigrinya</source>
        <translation>提格利尼亚语</translation>
    </message>
    <message>
        <source>Tamasheq</source>
        <translation>塔马舍克语</translation>
    </message>
    <message>
        <source>Tok Pisin</source>
        <translation>托克皮辛语</translation>
    </message>
    <message>
        <source>Tsonga</source>
        <translation>聪加语</translation>
    </message>
    <message>
        <source>Turkmen</source>
        <translation>土库曼语</translation>
    </message>
    <message>
        <source>Tumbuka</source>
        <translation>通布卡语</translation>
    </message>
    <message>
        <source>Twi</source>
        <translation>契维语</translation>
    </message>
    <message>
        <source>Central Atlas Tamazight</source>
        <translation>中阿特拉斯塔马塞特语</translation>
    </message>
    <message>
        <source>Uyghur</source>
        <translation>维吾尔语</translation>
    </message>
    <message>
        <source>Umbundu</source>
        <translation>翁本杜语</translation>
    </message>
    <message>
        <source>Venetian</source>
        <translation>威尼斯语</translation>
    </message>
    <message>
        <source>Waray</source>
        <translation>瓦瑞语</translation>
    </message>
    <message>
        <source>Cantonese</source>
        <translation>粤语</translation>
    </message>
    <message>
        <source>Simplified</source>
        <translation>简体</translation>
    </message>
    <message>
        <source>Traditional</source>
        <translation>繁体</translation>
    </message>
    <message>
        <source>Arabic script</source>
        <translation>阿拉伯字母</translation>
    </message>
    <message>
        <source>Latin script</source>
        <translation>拉丁字母</translation>
    </message>
    <message>
        <source>Devanagari</source>
        <translation>天城文</translation>
    </message>
    <message>
        <source>Tifinagh</source>
        <translation>提非纳文</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Many languages</source>
        <translation>多种语言</translation>
    </message>
</context>
<context>
    <name>memory_check</name>
    <message>
        <source>Not enough memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>%1 needs about %2 of memory to translate; this computer has %3. The computer may become very slow, or Fanyi may be closed by the system. Load it anyway?</source>
        <translation>%1 翻译时约需 %2 内存；这台电脑只有 %3。电脑可能会变得很慢，或者系统可能会关闭 Fanyi。仍要加载吗？</translation>
    </message>
</context>
<context>
    <name>models</name>
    <message>
        <source>full precision</source>
        <translation>全精度</translation>
    </message>
</context>
<context>
    <name>pack_ops</name>
    <message>
        <source>The download servers cannot be reached. Check the internet connection or the proxy. Where huggingface.co is blocked or slow (as in mainland China), choose hf-mirror.com or ModelScope in Settings → Downloads. Or import a pack.</source>
        <translation>无法连接下载服务器。请检查网络连接或代理。若 huggingface.co 无法访问或很慢（如在中国大陆），请在“设置 → 下载”中选择 hf-mirror.com 或魔搭 ModelScope。也可以导入模型包。</translation>
    </message>
    <message>
        <source>GitHub cannot be reached. Check the internet connection or the proxy. Where GitHub is blocked or slow (as in mainland China), enter a GitHub mirror in Settings → Downloads, or import ECDICT&apos;s file with Import dictionary….</source>
        <translation>无法连接 GitHub。请检查网络连接或代理。在 GitHub 无法访问或很慢的地方（如中国大陆），请在“设置 → 下载”中填入 GitHub 镜像，或用“导入词典…”导入 ECDICT 的文件。</translation>
    </message>
    <message>
        <source>%1 is neither a model pack (it has no manifest.json) nor a Hugging Face model folder (it has no config.json): choose the folder that holds one of them.</source>
        <translation>%1 既不是模型包（没有 manifest.json），也不是 Hugging Face 模型文件夹（没有 config.json）：请选择包含其中之一的文件夹。</translation>
    </message>
    <message>
        <source>Hugging Face refuses the access token for this model. Open %1, log in with the token&apos;s account and accept the model&apos;s licence, then try again.</source>
        <translation>Hugging Face 拒绝了此模型的访问令牌。请打开 %1，用该令牌所属的账号登录并接受模型的许可证，然后重试。</translation>
    </message>
    <message>
        <source>This model is gated on Hugging Face. Open %1, log in and accept its licence, then enter an access token in Settings → Downloads (huggingface.co → Settings → Access Tokens) and try again.</source>
        <translation>此模型在 Hugging Face 上需申请访问。请打开 %1，登录并接受其许可证，然后在“设置 → 下载”中填写访问令牌（huggingface.co → Settings → Access Tokens），再重试。</translation>
    </message>
    <message>
        <source>Asking %1 for the model&apos;s files…</source>
        <translation>正在向 %1 查询模型文件…</translation>
    </message>
    <message>
        <source>Converting…</source>
        <translation>正在转换…</translation>
    </message>
    <message>
        <source>Converting: layer %1 of %2</source>
        <translation>正在转换：第 %1 层，共 %2 层</translation>
    </message>
    <message>
        <source>Converting the dictionary: %1%</source>
        <translation>正在转换词典：%1%</translation>
    </message>
    <message>
        <source>Checking and installing…</source>
        <translation>正在校验并安装…</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1，来自 %2</translation>
    </message>
    <message>
        <source>%1/s</source>
        <translation>%1/秒</translation>
    </message>
    <message>
        <source>about %1 s left</source>
        <translation>约剩 %1 秒</translation>
    </message>
    <message>
        <source>about %1 min left</source>
        <translation>约剩 %1 分钟</translation>
    </message>
    <message>
        <source>about %1 h left</source>
        <translation>约剩 %1 小时</translation>
    </message>
    <message>
        <source>Import a model pack (.zip)</source>
        <translation>导入模型包（.zip）</translation>
    </message>
    <message>
        <source>Model pack (*.zip)</source>
        <translation>模型包 (*.zip)</translation>
    </message>
    <message>
        <source>Import a model pack folder, or a model&apos;s folder to convert</source>
        <translation>导入模型包文件夹，或要转换的模型文件夹</translation>
    </message>
</context>
<context>
    <name>region</name>
    <message>
        <source>Wayland does not let applications capture the screen, so screenshot translation cannot work here. Log in with an X11 session to use it.</source>
        <translation>Wayland 不允许应用程序截取屏幕，因此截图翻译在这里无法使用。请登录 X11 会话后再使用。</translation>
    </message>
    <message>
        <source>Drag around the text to translate. Esc cancels.</source>
        <translation>框选要翻译的文字。按 Esc 取消。</translation>
    </message>
</context>
<context>
    <name>summaries</name>
    <message>
        <source>The text is shorter than a summary would be: here it is as it was.</source>
        <translation>原文比摘要还短：按原样显示。</translation>
    </message>
    <message>
        <source>The text was translated into English by %1 first: %2 summarizes English only.</source>
        <translation>原文先由 %1 译成英文：%2 只能为英文生成摘要。</translation>
    </message>
    <message>
        <source>Summarized in English by %1, translated by %2.</source>
        <translation>由 %1 生成英文摘要，再由 %2 翻译。</translation>
    </message>
    <message>
        <source>Summarized by %1.</source>
        <translation>由 %1 生成摘要。</translation>
    </message>
    <message>
        <source>English summary (%1):</source>
        <translation>英文摘要（%1）：</translation>
    </message>
    <message>
        <source>Translating the text into English… %1%</source>
        <translation>正在把原文译成英文… %1%</translation>
    </message>
    <message>
        <source>Translating the summary…</source>
        <translation>正在翻译摘要…</translation>
    </message>
    <message>
        <source>Summarizing part %1 of %2…</source>
        <translation>正在概括第 %1 部分（共 %2 部分）…</translation>
    </message>
    <message>
        <source>Combining the summaries: %1 of %2…</source>
        <translation>正在合并各部分摘要：第 %1 个（共 %2 个）…</translation>
    </message>
    <message>
        <source>Summarizing…</source>
        <translation>正在生成摘要…</translation>
    </message>
    <message>
        <source>Combining the summaries…</source>
        <translation>正在合并各部分摘要…</translation>
    </message>
</context>
<context>
    <name>variants</name>
    <message>
        <source>Simplified Chinese</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>Traditional Chinese with Taiwan&apos;s words (软件 → 軟體), by OpenCC</source>
        <translation>繁体中文，台湾用语（软件 → 軟體），由 OpenCC 转换</translation>
    </message>
    <message>
        <source>Traditional Chinese with Hong Kong&apos;s words (视频 → 視頻), by OpenCC</source>
        <translation>繁体中文，香港用语（视频 → 視頻），由 OpenCC 转换</translation>
    </message>
    <message>
        <source>Traditional Chinese as the model writes it</source>
        <translation>繁体中文，由模型直接写出</translation>
    </message>
    <message>
        <source>Cantonese</source>
        <translation>粤语</translation>
    </message>
</context>
</TS>

# Turns one document into text with locations. Run by document_text.py as a child process with limits (memory, CPU,
# files, no network), one document at a time: documents are hostile input. Reads the request JSON from the path in
# argv[1], writes {"format", "units", "passages": [{"location", "text"}], "notes"} as JSON to stdout, or exits 3
# with a one-line reason on stderr when the document cannot be read.

import csv, json, os, re, subprocess, sys, zipfile

OCR_LANGUAGES = "eng+chi_sim"
# a page with fewer visible characters than this is taken for a scan and read by OCR
SCANNED_PAGE_CHARS = 16
SHEET_ROWS_PER_PASSAGE = 40
TEXT_LINES_PER_PASSAGE = 60
OCR_DPI = 200
# a member of an Office zip larger than this when unpacked is a zip bomb, not a document
MAX_UNPACKED_MEMBER = 256 * 1024 * 1024

TEXT_FORMATS = {
    ".txt", ".md", ".markdown", ".rst", ".log", ".csv", ".tsv", ".json", ".yaml", ".yml", ".xml", ".ini", ".toml",
    ".py", ".js", ".ts", ".tsx", ".jsx", ".java", ".c", ".h", ".cpp", ".go", ".rs", ".rb", ".sh", ".sql", ".css", ".tex",
}
IMAGE_FORMATS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"}


class Unreadable(Exception):
    """The document cannot be read; the message says why, for the person and the model."""


def visible(text):
    return len(re.sub(r"\s+", "", text or ""))


def clean(text):
    # control characters other than tab and newline carry nothing a reader needs
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", (text or "").replace("\r\n", "\n").replace("\r", "\n")).strip()


def in_range(number, wanted):
    return wanted is None or wanted[0] <= number <= wanted[1]


def ocr_image(path):
    done = subprocess.run(
        ["tesseract", path, "stdout", "-l", OCR_LANGUAGES], capture_output=True, timeout=120, check=False
    )
    if done.returncode != 0:
        last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        raise Unreadable("OCR failed" + (" (%s)" % last[0][:200] if last else ""))
    return clean(done.stdout.decode("utf-8", "replace"))


def check_zip(path):
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as error:
        raise Unreadable("not a valid Office/zip file (%s)" % error)
    for member in archive.infolist():
        if member.file_size > MAX_UNPACKED_MEMBER:
            raise Unreadable("a part unpacks to %d MB (a zip bomb?)" % (member.file_size // (1024 * 1024)))
    return archive


# ---- PDF ----------------------------------------------------------------------------------------------------------

def read_pdf(path, wanted, notes):
    import pypdf

    try:
        reader = pypdf.PdfReader(path)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except Exception:
                opened = 0
            if not opened:
                raise Unreadable("the PDF is encrypted (it needs a password)")
        count = len(reader.pages)
    except Unreadable:
        raise
    except Exception as error:
        raise Unreadable("not a readable PDF (%s)" % str(error).splitlines()[0][:200])
    passages = []
    for number in range(1, count + 1):
        if not in_range(number, wanted):
            continue
        try:
            text = clean(reader.pages[number - 1].extract_text())
        except Exception as error:
            notes.append("page %d could not be read (%s)" % (number, str(error)[:120]))
            continue
        if visible(text) < SCANNED_PAGE_CHARS:
            scanned = ocr_pdf_page(path, number, notes)
            if visible(scanned) >= visible(text):
                text = scanned
        if visible(text) == 0:
            notes.append("page %d has no text (OCR found none)" % number)
            continue
        passages.append({"location": {"page": number}, "text": text})
    return {"format": "pdf", "units": count, "passages": passages}


def ocr_pdf_page(path, number, notes):
    prefix = "/tmp/manus-ocr-page"
    done = subprocess.run(
        ["pdftoppm", "-f", str(number), "-l", str(number), "-r", str(OCR_DPI), "-gray", "-png", "-singlefile", path,
         prefix],
        capture_output=True, timeout=120, check=False,
    )
    image = prefix + ".png"
    if done.returncode != 0 or not os.path.exists(image):
        notes.append("page %d could not be rendered for OCR" % number)
        return ""
    try:
        return ocr_image(image)
    except Unreadable as error:
        notes.append("page %d: %s" % (number, error))
        return ""
    finally:
        os.unlink(image)


# ---- Word, OpenDocument text, HTML, EPUB, Markdown: sections under their headings ------------------------------

class Sections:
    """Blocks of text under the current heading path; each section's location is its first line and the path."""

    def __init__(self):
        self.path = []
        self.passages = []
        self.lines = []
        self.first_line = None

    def heading(self, level, title, line):
        self.flush()
        title = clean(title)
        self.path = self.path[: max(level - 1, 0)] + [title]
        self.lines = [title]
        self.first_line = line

    def text(self, text, line):
        text = clean(text)
        if not text:
            return
        if self.first_line is None:
            self.first_line = line
        self.lines.append(text)
        if len(self.lines) >= TEXT_LINES_PER_PASSAGE:
            self.flush()

    def flush(self):
        body = "\n".join(self.lines).strip()
        if body:
            location = {"line": self.first_line or 1}
            if self.path:
                location["heading"] = " > ".join(self.path)
            self.passages.append({"location": location, "text": body})
        self.lines = []
        self.first_line = None

    def done(self):
        self.flush()
        return self.passages


def heading_level(style_name):
    match = re.match(r"(?:heading|标题)\s*(\d)", style_name or "", re.I)
    if match:
        return int(match.group(1))
    return 1 if (style_name or "").lower() == "title" else None


def read_docx(path):
    check_zip(path)
    import docx
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(path)
    except Exception as error:
        raise Unreadable("not a readable Word document (%s)" % str(error)[:200])
    sections = Sections()
    line = 0
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            line += 1
            paragraph = Paragraph(child, document)
            level = heading_level(paragraph.style.name if paragraph.style is not None else "")
            if level and paragraph.text.strip():
                sections.heading(level, paragraph.text, line)
            else:
                sections.text(paragraph.text, line)
        elif tag == "tbl":
            for row in Table(child, document).rows:
                line += 1
                sections.text("\t".join(cell.text.strip() for cell in row.cells), line)
    return {"format": "docx", "units": line, "passages": sections.done()}


def read_odt(path):
    check_zip(path)
    from odf import teletype
    from odf.opendocument import load

    try:
        document = load(path)
    except Exception as error:
        raise Unreadable("not a readable OpenDocument file (%s)" % str(error)[:200])
    sections = Sections()
    line = 0

    # document order: the body's headings and paragraphs as they stand, inside lists and tables too
    def walk(node):
        nonlocal line
        for child in node.childNodes:
            qname = getattr(child, "qname", (None, None))[1]
            if qname == "h":
                line += 1
                level = int(child.getAttribute("outlinelevel") or 1)
                sections.heading(level, teletype.extractText(child), line)
            elif qname == "p":
                line += 1
                sections.text(teletype.extractText(child), line)
            elif getattr(child, "childNodes", None):
                walk(child)
    walk(document.text)
    return {"format": "odt", "units": line, "passages": sections.done()}


def read_odp(path, wanted):
    check_zip(path)
    from odf import draw, teletype, text as odf_text
    from odf.opendocument import load

    try:
        document = load(path)
    except Exception as error:
        raise Unreadable("not a readable OpenDocument presentation (%s)" % str(error)[:200])
    pages = document.presentation.getElementsByType(draw.Page)
    passages = []
    for number, page in enumerate(pages, start=1):
        if not in_range(number, wanted):
            continue
        body = clean("\n".join(teletype.extractText(p) for p in page.getElementsByType(odf_text.P)))
        if body:
            passages.append({"location": {"slide": number}, "text": body})
    return {"format": "odp", "units": len(pages), "passages": passages}


def html_sections(markup, sections, line_offset=0):
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(markup, "lxml")
    for hidden in soup(["script", "style", "noscript", "template", "head"]):
        hidden.decompose()
    line = line_offset
    body = soup.body or soup
    for element in body.find_all(["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "pre", "td", "th", "blockquote",
                                  "dt", "dd", "figcaption", "caption"]):
        # a block inside another listed block is read with its parent
        if element.find_parent(["p", "li", "pre", "td", "th", "blockquote", "dd"]):
            continue
        line += 1
        text = element.get_text(" ", strip=True)
        if element.name[0] == "h" and element.name[1:].isdigit():
            sections.heading(int(element.name[1:]), text, line)
        else:
            sections.text(text, line)
    return line


def read_html(path):
    with open(path, "rb") as handle:
        markup = handle.read()
    sections = Sections()
    lines = html_sections(markup, sections)
    return {"format": "html", "units": lines, "passages": sections.done()}


def read_epub(path, wanted):
    archive = check_zip(path)
    from lxml import etree

    try:
        container = etree.fromstring(archive.read("META-INF/container.xml"))
        opf_path = container.xpath("//*[local-name()='rootfile']/@full-path")[0]
        opf = etree.fromstring(archive.read(opf_path))
    except Exception as error:
        raise Unreadable("not a readable EPUB (%s)" % str(error)[:200])
    base = os.path.dirname(opf_path)
    manifest = {item.get("id"): item.get("href") for item in opf.xpath("//*[local-name()='item']")}
    spine = [manifest.get(ref.get("idref")) for ref in opf.xpath("//*[local-name()='itemref']")]
    passages = []
    for number, href in enumerate([h for h in spine if h], start=1):
        if not in_range(number, wanted):
            continue
        name = os.path.normpath(os.path.join(base, href)).replace(os.sep, "/")
        try:
            markup = archive.read(name)
        except KeyError:
            continue
        sections = Sections()
        html_sections(markup, sections)
        for passage in sections.done():
            passage["location"]["chapter"] = number
            passages.append(passage)
    return {"format": "epub", "units": len(spine), "passages": passages}


def read_text(path, extension):
    with open(path, "rb") as handle:
        raw = handle.read()
    if b"\x00" in raw[:4096] and not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise Unreadable("a binary file, not text")
    for encoding in ("utf-8-sig", "utf-16") if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else ("utf-8-sig", "gb18030",
                                                                                                "latin-1"):
        try:
            content = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    sections = Sections()
    markdown = extension in (".md", ".markdown")
    fenced = False
    for line, text in enumerate(content.splitlines(), start=1):
        if markdown and text.lstrip().startswith("```"):
            fenced = not fenced
        heading = re.match(r"^(#{1,6})\s+(.*)$", text) if markdown and not fenced else None
        if heading:
            sections.heading(len(heading.group(1)), heading.group(2), line)
        else:
            sections.text(text, line)
    return {"format": "markdown" if markdown else "text", "units": content.count("\n") + 1,
            "passages": sections.done()}


# ---- spreadsheets and decks -------------------------------------------------------------------------------------

def column_name(index):
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def sheet_passages(sheet_name, numbered_rows):
    """Rows (row number, list of cells) as passages of a few dozen rows, each located by its sheet and cell range."""
    passages = []
    chunk, first, width = [], None, 1
    for number, row in numbered_rows:
        cells = ["" if value is None else str(value).strip() for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if first is None:
            first = number
        width = max(width, len(cells))
        chunk.append((number, "\t".join(cells)))
        if len(chunk) >= SHEET_ROWS_PER_PASSAGE:
            passages.append(sheet_passage(sheet_name, chunk, width))
            chunk, first, width = [], None, 1
    if chunk:
        passages.append(sheet_passage(sheet_name, chunk, width))
    return passages


def sheet_passage(sheet_name, chunk, width):
    cells = "A%d:%s%d" % (chunk[0][0], column_name(width - 1), chunk[-1][0])
    return {"location": {"sheet": sheet_name, "cells": cells}, "text": "\n".join(text for _, text in chunk)}


def read_xlsx(path, wanted):
    check_zip(path)
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as error:
        raise Unreadable("not a readable Excel workbook (%s)" % str(error)[:200])
    passages = []
    for number, sheet in enumerate(workbook.worksheets, start=1):
        if in_range(number, wanted):
            passages.extend(sheet_passages(sheet.title, enumerate(sheet.iter_rows(values_only=True), start=1)))
    return {"format": "xlsx", "units": len(workbook.worksheets), "passages": passages}


def read_ods(path, wanted):
    check_zip(path)
    from odf import table as odf_table
    from odf.opendocument import load

    try:
        document = load(path)
    except Exception as error:
        raise Unreadable("not a readable OpenDocument spreadsheet (%s)" % str(error)[:200])
    sheets = document.spreadsheet.getElementsByType(odf_table.Table)
    passages = []
    for number, sheet in enumerate(sheets, start=1):
        if in_range(number, wanted):
            passages.extend(sheet_passages(sheet.getAttribute("name") or str(number), ods_rows(sheet)))
    return {"format": "ods", "units": len(sheets), "passages": passages}


def ods_rows(sheet):
    """A sheet's (row number, cell texts); repeated empty rows and cells (to the end of the sheet) are not expanded."""
    from odf import table as odf_table, teletype

    number = 0
    for row in sheet.getElementsByType(odf_table.TableRow):
        cells = []
        for cell in row.childNodes:
            if getattr(cell, "qname", (None, None))[1] not in ("table-cell", "covered-table-cell"):
                continue
            text = teletype.extractText(cell)
            repeat = int(cell.getAttribute("numbercolumnsrepeated") or 1)
            cells.extend([text] * (min(repeat, 1024) if text else min(repeat, 1)))
        repeat = int(row.getAttribute("numberrowsrepeated") or 1)
        if not any(cells):
            number += repeat
            continue
        for _ in range(min(repeat, 1024)):
            number += 1
            yield number, cells


def read_delimited(path, extension):
    with open(path, "r", encoding="utf-8-sig", errors="replace", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t" if extension == ".tsv" else ","))
    passages = sheet_passages(os.path.basename(path), enumerate(rows, start=1))
    return {"format": extension[1:], "units": len(rows), "passages": passages}


def read_pptx(path, wanted):
    archive = check_zip(path)
    slides = sorted(
        (name for name in archive.namelist() if re.match(r"ppt/slides/slide\d+\.xml$", name)),
        key=lambda name: int(re.search(r"(\d+)\.xml$", name).group(1)),
    )
    if not slides:
        raise Unreadable("not a readable PowerPoint deck (no slides)")
    from lxml import etree

    passages = []
    for number, name in enumerate(slides, start=1):
        if not in_range(number, wanted):
            continue
        root = etree.fromstring(archive.read(name))
        paragraphs = ["".join(p.xpath(".//*[local-name()='t']/text()")) for p in root.xpath("//*[local-name()='p']")]
        body = clean("\n".join(p for p in paragraphs if p.strip()))
        if body:
            passages.append({"location": {"slide": number}, "text": body})
    return {"format": "pptx", "units": len(slides), "passages": passages}


def read_image(path):
    text = ocr_image(path)
    if visible(text) == 0:
        return {"format": "image", "units": 1, "passages": [], "notes": ["the image has no text (OCR found none)"]}
    return {"format": "image", "units": 1, "passages": [{"location": {"page": 1}, "text": text}]}


def read_with_pandoc(path, source_format):
    done = subprocess.run(["pandoc", "-f", source_format, "-t", "plain", "--wrap=none", path], capture_output=True,
                          timeout=120, check=False)
    if done.returncode != 0:
        raise Unreadable("pandoc could not read it (%s)" % done.stderr.decode("utf-8", "replace").strip()[:200])
    sections = Sections()
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    for line, text in enumerate(lines, start=1):
        sections.text(text, line)
    return {"format": source_format, "units": len(lines), "passages": sections.done()}


def sniff(path):
    with open(path, "rb") as handle:
        head = handle.read(8)
    if head.startswith(b"%PDF"):
        return ".pdf"
    return ""


def extract(path, name, wanted):
    notes = []
    extension = os.path.splitext(name.lower())[1] or sniff(path)
    if extension == ".pdf":
        result = read_pdf(path, wanted, notes)
    elif extension in (".docx", ".docm"):
        result = read_docx(path)
    elif extension in (".xlsx", ".xlsm"):
        result = read_xlsx(path, wanted)
    elif extension == ".pptx":
        result = read_pptx(path, wanted)
    elif extension == ".odt":
        result = read_odt(path)
    elif extension == ".ods":
        result = read_ods(path, wanted)
    elif extension == ".odp":
        result = read_odp(path, wanted)
    elif extension in (".html", ".htm", ".xhtml"):
        result = read_html(path)
    elif extension == ".epub":
        result = read_epub(path, wanted)
    elif extension == ".rtf":
        result = read_with_pandoc(path, "rtf")
    elif extension in (".csv", ".tsv"):
        result = read_delimited(path, extension)
    elif extension in IMAGE_FORMATS:
        result = read_image(path)
    elif extension in TEXT_FORMATS or extension == "":
        result = read_text(path, extension)
    elif extension in (".doc", ".xls", ".ppt"):
        raise Unreadable("an old binary Office format (%s): save it as %sx to read it" % (extension, extension))
    else:
        raise Unreadable("not a document format this reader knows (%s)" % extension)
    result["notes"] = notes + result.get("notes", [])
    return result


def main():
    with open(sys.argv[1], "r", encoding="utf-8") as handle:
        request = json.load(handle)
    wanted = request.get("pages")
    try:
        result = extract(request["path"], request["name"], tuple(wanted) if wanted else None)
    except Unreadable as error:
        sys.stderr.write(str(error))
        sys.exit(3)
    except MemoryError:
        sys.stderr.write("reading it needed more memory than a document may use")
        sys.exit(3)
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()

// Escaping for every text a report prints. Strings that reach a report come
// from subjects, files and external commands, so any byte can appear: each
// function first replaces ill-formed UTF-8 by U+FFFD, then makes the text
// inert in its target. Control characters other than tab and newline are not
// allowed in XML 1.0 at all (not even as character references) and are parse
// errors in HTML, so they are shown as visible text: "\x1b", "\u0085".
#pragma once

#include <string>
#include <string_view>

namespace pecheck::reports {

// Well-formed UTF-8: every ill-formed sequence (stray continuation bytes,
// overlong forms, surrogates, code points past U+10FFFF, truncated
// sequences) becomes U+FFFD, one per maximal ill-formed subpart.
std::string sanitize_utf8(std::string_view text);

// Text content and attribute values in HTML: & < > " ' become references;
// newlines and tabs are kept (inside <pre> they matter).
std::string escape_html(std::string_view text);

// XML 1.0 character data: & < > become references; tab, newline and carriage
// return are kept.
std::string escape_xml_text(std::string_view text);
// XML 1.0 attribute values (quoted with "): also " ' and tab, newline and
// carriage return as character references, which attribute-value
// normalisation would otherwise turn into spaces.
std::string escape_xml_attribute(std::string_view text);

// Markdown running text on one line: the characters CommonMark and GitHub
// give a meaning (emphasis, code, links, HTML, tables) are backslash-escaped,
// & becomes &amp; and newlines become spaces.
std::string escape_markdown(std::string_view text);
// A GitHub table cell: as above, with newlines as <br>.
std::string escape_markdown_cell(std::string_view text);
// A fenced code block holding `text` verbatim: the fence is longer than the
// longest run of backticks in the text.
std::string markdown_code_block(std::string_view text);

}  // namespace pecheck::reports

#include "cli.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>
#include <utility>

namespace stu::cli {

bool write_file(const std::string& path, const std::string& text, std::string& why) {
  if (path == "-") {
    std::cout << text << std::flush;
    return true;
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
  if (f && std::fclose(f) != 0) ok = false;
  if (!ok) why = "cannot write '" + path + "': " + std::strerror(errno);
  return ok;
}

bool read_file(const std::string& path, std::string& out, std::string& why) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    out = ss.str();
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    why = "is a directory";
    return false;
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    why = std::strerror(errno);
    return false;
  }
  // One read into a buffer of the file's size (no stream copies: inputs can be 10+ MB).
  out.clear();
  char chunk[1 << 16];
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  if (size > 0) {
    out.resize(size_t(size));
    out.resize(std::fread(out.data(), 1, out.size(), f));
  }
  for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) out.append(chunk, n);  // pipes
  const bool bad = std::ferror(f) != 0;
  std::fclose(f);
  if (bad) {
    why = "read error";
    return false;
  }
  return true;
}

InputText::~InputText() {
  if (map_) munmap(const_cast<char*>(map_), size_);
}

bool InputText::open(const std::string& path, std::string& why) {
  if (path != "-") {
    const int fd = ::open(path.c_str(), O_RDONLY);
    struct stat st {};
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
      void* p = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      ::close(fd);
      if (p != MAP_FAILED) {
        map_ = static_cast<const char*>(p);
        size_ = size_t(st.st_size);
        return true;
      }
    } else if (fd >= 0) {
      ::close(fd);
    }
  }
  return read_file(path, copy_, why);
}

void print_error_lines(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) std::cerr << "stu: error: " << line << "\n";
}

void print_diags(const Diagnostics& d, const std::string& file, size_t max_errors) {
  std::string text;
  d.format(text, file, max_errors);
  std::cerr.write(text.data(), std::streamsize(text.size()));  // one write, not one per field
}

int for_each_input(const std::vector<std::string>& files,
                   const std::function<bool(const std::string&, std::string_view)>& fn) {
  bool any_error = false;
  bool io_error = false;
  for (const std::string& f : files) {
    InputText text;
    std::string why;
    if (!text.open(f, why)) {
      std::cerr << "stu: error: cannot read '" << f << "': " << why << "\n";
      io_error = true;
      continue;
    }
    any_error |= fn(f, text.view());
  }
  return io_error ? kUsage : any_error ? kFinding : kOk;
}

CLI::Option* add_files(CLI::App& app, std::vector<std::string>& files, const char* what) {
  return app.add_option("files", files, what)->type_name("FILE");
}

CLI::Option* add_max_errors(CLI::App& app, size_t& max_errors) {
  return app
      .add_option("--max-errors", max_errors,
                  "stop printing diagnostics after N errors per file (0: all)")
      ->type_name("N");
}

void add_target_options(CLI::App& app, ptx::CheckOptions& check) {
  app.add_option_function<std::string>(
         "--target", [&check](const std::string& v) { check.target = isa::Target::parse(v); },
         "validate for this target instead of the module's .target")
      ->type_name("sm_XX[a|f]")
      ->check(
          [](const std::string& v) -> std::string {
            auto t = isa::Target::parse(v);
            return t && t->known() ? "" : "needs a known target like sm_90a, not '" + v + "'";
          },
          "");
  app.add_option_function<std::string>(
         "--ptx-version",
         [&check](const std::string& v) { check.version = isa::PtxVersion::parse(v); },
         "validate for this PTX ISA version instead of the module's .version")
      ->type_name("X.Y")
      ->check(
          [](const std::string& v) -> std::string {
            return isa::PtxVersion::parse(v) ? "" : "needs a version like 8.8, not '" + v + "'";
          },
          "");
}

bool ends_with(const std::string& s, const char* suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

namespace {

std::string xml_escape(const std::string& in) {
  std::string out;
  for (char c : in) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n') ? ' ' : c;
    }
  }
  return out;
}

}  // namespace

bool write_junit(const std::string& path, const std::string& suite, const std::string& classname,
                 const std::vector<JunitCase>& cases) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  size_t failures = 0;
  double total = 0;
  for (const JunitCase& c : cases) {
    failures += !c.ok;
    total += c.seconds;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"" << xml_escape(suite)
      << "\" tests=\"" << cases.size() << "\" failures=\"" << failures << "\" time=\"" << total
      << "\">\n";
  for (const JunitCase& c : cases) {
    out << "  <testcase classname=\"" << xml_escape(classname) << "\" name=\"" << xml_escape(c.name)
        << "\" time=\"" << c.seconds << "\"";
    if (c.ok) {
      out << "/>\n";
      continue;
    }
    out << ">\n    <failure message=\"" << xml_escape(c.message) << "\">" << xml_escape(c.details)
        << "</failure>\n  </testcase>\n";
  }
  out << "</testsuite>\n";
  return bool(out);
}

namespace {

std::string xml_unescape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out += s[i];
      continue;
    }
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
    bool done = false;
    for (const auto& [name, c] : kEntities) {
      if (s.substr(i, name.size()) == name) {
        out += c;
        i += name.size() - 1;
        done = true;
        break;
      }
    }
    if (!done) out += '&';
  }
  return out;
}

// The value of attribute `name` in the tag text `tag` (`<testcase a="..." ...>`), unescaped.
bool attribute(std::string_view tag, std::string_view name, std::string& out) {
  const std::string key = " " + std::string(name) + "=\"";
  const std::size_t at = tag.find(key);
  if (at == std::string_view::npos) return false;
  const std::size_t from = at + key.size(), to = tag.find('"', from);
  if (to == std::string_view::npos) return false;
  out = xml_unescape(tag.substr(from, to - from));
  return true;
}

}  // namespace

bool read_junit(const std::string& path, std::vector<JunitCase>& cases, std::string& why) {
  std::string text;
  if (!read_file(path, text, why)) return false;
  if (text.find("<testsuite") == std::string::npos) {
    why = path + ": not a JUnit report (no <testsuite>)";
    return false;
  }
  std::size_t at = 0;
  while ((at = text.find("<testcase", at)) != std::string::npos) {
    const std::size_t end = text.find('>', at);
    if (end == std::string::npos) {
      why = path + ": a <testcase> element is cut off";
      return false;
    }
    const std::string_view tag(text.data() + at, end - at + 1);
    JunitCase c;
    std::string seconds;
    if (!attribute(tag, "name", c.name)) {
      why = path + ": a <testcase> without a name";
      return false;
    }
    if (attribute(tag, "time", seconds)) c.seconds = std::strtod(seconds.c_str(), nullptr);
    c.ok = true;
    at = end + 1;
    if (tag.size() >= 2 && tag[tag.size() - 2] == '/') {  // <testcase .../>
      cases.push_back(std::move(c));
      continue;
    }
    const std::size_t close = text.find("</testcase>", at);
    if (close == std::string::npos) {
      why = path + ": <testcase name=\"" + c.name + "\"> is not closed";
      return false;
    }
    std::string status;
    if (attribute(tag, "status", status) && (status == "notrun" || status == "disabled"))
      c.skipped = true;
    const std::size_t sk = text.find("<skipped", at);
    if (sk != std::string::npos && sk < close) c.skipped = true;
    const std::size_t f = text.find("<failure", at);
    if (f != std::string::npos && f < close) {
      c.ok = false;
      const std::size_t fend = text.find('>', f);
      const std::string_view ftag(text.data() + f, fend - f + 1);
      attribute(ftag, "message", c.message);
      const std::size_t body_end = text.find("</failure>", fend);
      if (body_end != std::string::npos && body_end < close)
        c.details = xml_unescape(std::string_view(text).substr(fend + 1, body_end - fend - 1));
    }
    at = close + 11;
    cases.push_back(std::move(c));
  }
  return true;
}

}  // namespace stu::cli

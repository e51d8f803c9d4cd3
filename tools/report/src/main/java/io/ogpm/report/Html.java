package io.ogpm.report;

/** Escaping for text and attribute values in HTML and SVG. */
public final class Html {
  private Html() {}

  public static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}

"""Writing an article: the tool loop that ends in `submit_article` and its tools, edits of an
existing article, the source material and its length rules, and attachments fetched on demand."""

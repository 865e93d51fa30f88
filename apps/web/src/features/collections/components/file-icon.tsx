import { File, FileArchive, FileAudio, FileCode, FileImage, FileSpreadsheet, FileText, FileVideo } from 'lucide-react';

/** An icon for a file by its content type or extension. */
export function FileTypeIcon({ contentType, name, className = 'size-5' }: { contentType: string; name: string; className?: string }) {
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  const t = contentType.toLowerCase();
  const props = { className, 'aria-hidden': true } as const;
  if (t.startsWith('image/')) return <FileImage {...props} />;
  if (t.startsWith('video/')) return <FileVideo {...props} />;
  if (t.startsWith('audio/')) return <FileAudio {...props} />;
  if (/zip|compressed|tar|gzip|7z|rar/.test(t) || ['zip', 'gz', 'tgz', '7z', 'rar', 'tar'].includes(ext)) return <FileArchive {...props} />;
  if (/csv|spreadsheet|excel/.test(t) || ['csv', 'xlsx', 'xls'].includes(ext)) return <FileSpreadsheet {...props} />;
  if (/json|javascript|typescript|xml|html/.test(t) || ['js', 'ts', 'json', 'py', 'html', 'css'].includes(ext)) return <FileCode {...props} />;
  if (t.startsWith('text/') || /pdf|document|msword/.test(t) || ['pdf', 'txt', 'md', 'doc', 'docx'].includes(ext)) return <FileText {...props} />;
  return <File {...props} />;
}

import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkspaceFile } from '../../../../shared/contract.js';
import { CodeView } from '../../tool-views/CodeView.js';
import { base64ToBytes } from '../common/download.js';
import { parseCsv } from './csv.js';
import './workspace.css';

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  py: 'python',
  js: 'javascript',
  ts: 'typescript',
  tsx: 'tsx',
  jsx: 'jsx',
  sh: 'bash',
  json: 'json',
  css: 'css',
  yml: 'yaml',
  yaml: 'yaml',
  sql: 'sql',
  xml: 'xml',
  toml: 'ini',
};

/** The preview of one workspace file, made for its kind. HTML renders in a frame with no scripts, no same origin. */
export function FilePreview({ file }: { file: WorkspaceFile }) {
  const { t } = useTranslation();
  const extension = file.path.split('.').pop()?.toLowerCase() ?? '';
  switch (file.kind) {
    case 'image':
      return (
        <div className="preview-image">
          <img src={`data:${file.mimeType};base64,${file.content}`} alt={file.path} data-testid="preview-image" />
        </div>
      );
    case 'csv':
      return <CsvTable text={file.content} separator={extension === 'tsv' ? '\t' : ','} />;
    case 'html':
      return (
        <iframe
          className="preview-frame"
          title={file.path}
          sandbox=""
          srcDoc={file.content}
          referrerPolicy="no-referrer"
          data-testid="preview-html"
        />
      );
    case 'pdf':
      return <PdfFrame file={file} />;
    case 'code':
      return <CodeView label={file.path} code={file.content} language={LANGUAGE_BY_EXTENSION[extension] ?? ''} />;
    case 'text':
      return <pre className="preview-text">{file.content}</pre>;
    default:
      return /[\u0000-\u0008]/.test(file.content.slice(0, 2000)) ? (
        <p className="panel-empty">{t('workspace.binary')}</p>
      ) : (
        <pre className="preview-text">{file.content}</pre>
      );
  }
}

function CsvTable({ text, separator }: { text: string; separator: string }) {
  const { t } = useTranslation();
  const { rows, truncated } = useMemo(() => parseCsv(text, separator), [text, separator]);
  const [head, ...body] = rows;
  if (!head) return <p className="panel-empty">{t('workspace.emptyFile')}</p>;
  return (
    <div className="preview-table-wrap">
      <table className="preview-table" data-testid="preview-csv">
        <thead>
          <tr>
            {head.map((cell, index) => (
              <th key={index}>{cell}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {body.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {truncated ? <p className="field-help">{t('workspace.rowsCut', { count: rows.length })}</p> : null}
    </div>
  );
}

function PdfFrame({ file }: { file: WorkspaceFile }) {
  const url = useMemo(
    () => URL.createObjectURL(new Blob([new Uint8Array(base64ToBytes(file.content))], { type: 'application/pdf' })),
    [file.content],
  );
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <iframe className="preview-frame" title={file.path} src={url} data-testid="preview-pdf" />;
}
